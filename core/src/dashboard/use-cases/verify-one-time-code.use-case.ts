import type { Clock, SecretBox, UnitOfWork } from '../../common';
import { CoreError } from '../../common';
import type { User } from '../domain/user.entity';
import type { OneTimeCodes } from '../ports/one-time-codes.port';
import type { UserRepository } from '../ports/user.repository.port';

export function mfaCodeInvalid(): CoreError {
  return new CoreError('mfa_code_invalid', 'forbidden', 'The one-time code is missing, wrong or already used.', { param: 'code' });
}
export interface VerifyOneTimeCodeDeps {
  readonly uow: UnitOfWork;
  readonly users: UserRepository;
  readonly codes: OneTimeCodes;
  readonly secrets: SecretBox;
  readonly clock: Clock;
}

/**
 * Checks the one-time code of the person at the keyboard and spends it: a code of the step last
 * used, or an earlier one, is refused, so a code seen over a shoulder cannot be replayed. Throws
 * 403 `mfa_code_invalid` (sign-in turns it into its single 401).
 */
export class VerifyOneTimeCode {
  constructor(private readonly deps: VerifyOneTimeCodeDeps) {}

  execute(input: { merchantId: string; userId: string; code: string | undefined }): Promise<User> {
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const user = await self.deps.users.findById(input.merchantId, input.userId);
      if (!user?.mfaSecret || input.code === undefined) throw mfaCodeInvalid();
      const step = self.deps.codes.matchingStep(self.deps.secrets.open(user.mfaSecret), input.code, self.deps.clock.now());
      if (step === undefined || (user.mfaLastStep !== undefined && step <= user.mfaLastStep)) throw mfaCodeInvalid();
      // Conditional, so two requests racing with one code (or a code racing a reset) spend it once.
      if (!(await self.deps.users.spendOneTimeStep(user.merchantId, user.id, user.mfaSecret, step))) throw mfaCodeInvalid();
      return { ...user, mfaLastStep: step };
    });
  }
}
