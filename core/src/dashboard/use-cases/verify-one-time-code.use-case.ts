import type { User } from '../domain/user.entity';
import { CoreError } from '../../shared';
import type { Clock } from '../../shared';
import type { OneTimeCodes } from '../ports/one-time-codes.port';
import type { SecretBox } from '../../shared';
import type { UnitOfWork } from '../../shared';
import type { UserRepository } from '../ports/user.repository.port';

export function mfaCodeInvalid(): CoreError {
  return new CoreError('mfa_code_invalid', 'forbidden', 'The one-time code is missing, wrong or already used.', { param: 'code' });
}

/**
 * Checks the one-time code of the person at the keyboard and spends it: a code of the step last
 * used, or an earlier one, is refused, so a code seen over a shoulder cannot be replayed. Throws
 * 403 `mfa_code_invalid` (sign-in turns it into its single 401).
 */
export class VerifyOneTimeCode {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly codes: OneTimeCodes,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {}

  execute(input: { merchantId: string; userId: string; code: string | undefined }): Promise<User> {
    return this.uow.run(async () => {
      const user = await this.users.findById(input.merchantId, input.userId);
      if (!user?.mfaSecret || input.code === undefined) throw mfaCodeInvalid();
      const step = this.codes.matchingStep(this.secrets.open(user.mfaSecret), input.code, this.clock.now());
      if (step === undefined || (user.mfaLastStep !== undefined && step <= user.mfaLastStep)) throw mfaCodeInvalid();
      // Conditional, so two requests racing with one code (or a code racing a reset) spend it once.
      if (!(await this.users.spendOneTimeStep(user.merchantId, user.id, user.mfaSecret, step))) throw mfaCodeInvalid();
      return { ...user, mfaLastStep: step };
    });
  }
}
