import type { ItemJob, JobLane, JobPass } from '../../jobs';
import type { SecretBox, UnitOfWork } from '../../common';
import { isCoreError } from '../../common';
import type { PayoutDestination } from '../domain/payout-destination.entity';
import type { PayoutDestinationRepository } from '../ports/payout-destination.repository.port';
import type { PayoutGateway } from '../ports/payout-gateway.port';

/** The provider's verdict on one account, or `unanswered` while it cannot be reached. */
export type VerificationVerdict = 'verified' | 'rejected' | 'unanswered';
export interface VerifyPayoutDestinationsDeps {
  readonly uow: UnitOfWork;
  readonly destinations: PayoutDestinationRepository;
  readonly gateway: PayoutGateway;
  readonly secrets: SecretBox;
}

/**
 * The verification job: each live bank account still `unverified` is shown to the payout
 * provider (its account number unsealed only for that call, never logged) and marked `verified`
 * or `rejected`. A verified account becomes the default of its mode when the mode has none; its
 * registration hold still applies. A provider that cannot be reached leaves it for the next pass.
 */
export class VerifyPayoutDestinations implements ItemJob<PayoutDestination, VerificationVerdict> {
  constructor(private readonly deps: VerifyPayoutDestinationsDeps) {}

  readonly name = 'verify-payout-destinations';
  /** Only live bank accounts are verified; test destinations are verified when registered. */
  readonly lanes: readonly JobLane[] = ['live'];

  async due(_lane: JobLane, limit: number, deferred: ReadonlySet<string>): Promise<PayoutDestination[]> {
    // Without a provider nothing can be asked; the payout job says so in its waiting reasons.
    if (!this.deps.gateway.supports('live')) return [];
    return this.deps.destinations.findUnverified('live', limit + deferred.size);
  }

  idOf(destination: PayoutDestination): string {
    return destination.id;
  }

  progressed(verdict: VerificationVerdict): boolean {
    return verdict !== 'unanswered';
  }

  /** Shows one account to the provider and records its verdict. */
  async handle(destination: PayoutDestination, pass: JobPass): Promise<VerificationVerdict> {
    if (pass.isDown('payout_gateway')) return 'unanswered';
    const scope = { merchantId: destination.merchantId, mode: destination.mode };
    let verdict;
    try {
      verdict = await this.deps.gateway.verifyDestination('live', {
        accountHolder: destination.accountHolder,
        bankCode: destination.bankCode,
        accountNumber: this.deps.secrets.open(destination.accountNumberSealed),
      });
    } catch (error) {
      if (!(isCoreError(error) && error.category === 'unavailable')) throw error;
      pass.markDown('payout_gateway');
      return 'unanswered';
    }
    const status = verdict.status;
    await this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      if (!(await self.deps.destinations.setVerification(scope, destination.id, status))) return;
      if (status === 'verified' && (await self.deps.destinations.findDefault(scope)) === undefined) {
        await self.deps.destinations.makeDefault(scope, destination.id, undefined);
      }
    });
    return status;
  }
}
