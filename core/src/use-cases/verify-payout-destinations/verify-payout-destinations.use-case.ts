import type { UnitOfWork } from '../../ports/unit-of-work.port';
import type { PayoutDestinationRepository } from '../../ports/payout-destination.repository.port';
import type { PayoutGateway } from '../../ports/payout-gateway.port';
import type { SecretBox } from '../../ports/secret-box.port';
import { isCoreError } from '../../errors/core-error';

export interface VerifyPayoutDestinationsSummary {
  readonly verified: number;
  readonly rejected: number;
  /** False when live payouts have no provider configured: nothing could be asked. */
  readonly gatewayConfigured: boolean;
}

/**
 * The verification job: each live bank account still `unverified` is shown to the payout
 * provider (its account number unsealed only for that call, never logged) and marked `verified`
 * or `rejected`. A verified account becomes the default of its mode when the mode has none; its
 * registration hold still applies. A provider that cannot be reached leaves it for the next pass.
 */
export class VerifyPayoutDestinations {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly destinations: PayoutDestinationRepository,
    private readonly gateway: PayoutGateway,
    private readonly secrets: SecretBox,
  ) {}

  async execute(input: { limit: number }): Promise<VerifyPayoutDestinationsSummary> {
    if (!this.gateway.supports('live')) return { verified: 0, rejected: 0, gatewayConfigured: false };
    let verified = 0;
    let rejected = 0;
    for (const destination of await this.destinations.findUnverified('live', input.limit)) {
      const scope = { merchantId: destination.merchantId, mode: destination.mode };
      let verdict;
      try {
        verdict = await this.gateway.verifyDestination('live', {
          accountHolder: destination.accountHolder,
          bankCode: destination.bankCode,
          accountNumber: this.secrets.open(destination.accountNumberSealed),
        });
      } catch (error) {
        if (isCoreError(error) && error.category === 'unavailable') continue;
        throw error;
      }
      const status = verdict.status;
      await this.uow.run(async () => {
        if (!(await this.destinations.setVerification(scope, destination.id, status))) return;
        if (status === 'verified' && (await this.destinations.findDefault(scope)) === undefined) {
          await this.destinations.makeDefault(scope, destination.id, undefined);
        }
      });
      if (status === 'verified') verified += 1;
      else rejected += 1;
    }
    return { verified, rejected, gatewayConfigured: true };
  }
}
