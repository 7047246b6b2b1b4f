import type { AuditRecorder } from '../../dashboard';
import type { Mode } from '../../shared';
import { PAYOUT_HOLD_MS, type PayoutDestination } from '../domain/payout-destination.entity';
import type { User } from '../../dashboard';
import { CoreError, notFound } from '../../shared';
import type { Clock } from '../../shared';
import type { MerchantRepository } from '../../merchants';
import type { NoticeOutbox } from '../../dashboard';
import type { PayoutDestinationRepository } from '../ports/payout-destination.repository.port';
import type { RandomSource } from '../../shared';
import type { UnitOfWork } from '../../shared';
import { payoutNotice } from './payout-notice';
import type { StepUp } from '../../dashboard';

/**
 * Sends the mode's settlements to another destination (or the same one again). The one-time code
 * comes first (403 `mfa_code_invalid`, counted and throttled by StepUp); an unknown destination, or one of another merchant or
 * mode, is 404; an unverified one 409 `destination_unverified`. In live mode the 24-hour hold is
 * armed again. The change, its notice and the audit entry commit together.
 */
export class SetDefaultPayoutDestination {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly merchants: MerchantRepository,
    private readonly destinations: PayoutDestinationRepository,
    private readonly notices: NoticeOutbox,
    private readonly stepUp: StepUp,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  execute(actor: User, input: { mode: Mode; id: string; code: string | undefined }): Promise<PayoutDestination> {
    const scope = { merchantId: actor.merchantId, mode: input.mode };
    return this.stepUp.guard(actor, () =>
      this.uow.run(async () => {
        await this.stepUp.verify(actor, input.code);
        const merchant = await this.merchants.findById(actor.merchantId);
        const target = await this.destinations.findById(scope, input.id);
        if (!merchant || !target) throw notFound('payout destination', input.id);
        if (target.status !== 'verified') {
          throw new CoreError('destination_unverified', 'conflict', 'This payout destination is not verified yet; it can become the default once it is.', { param: 'id' });
        }
        const now = this.clock.now();
        const holdUntil = input.mode === 'live' ? new Date(now.getTime() + PAYOUT_HOLD_MS) : undefined;
        const updated = await this.destinations.makeDefault(scope, target.id, holdUntil);
        if (!updated) throw notFound('payout destination', input.id);
        await this.notices.append(payoutNotice('payout_destination.default_changed', merchant, actor, updated, now, this.random));
        await this.audit.record({
          merchantId: merchant.id,
          userId: actor.id,
          action: 'payout_methods.write',
          objectType: 'payout_method',
          objectId: updated.id,
          details: { change: 'default_changed', mode: updated.mode, account_last4: updated.accountNumberLast4 },
        });
        return updated;
      }),
    );
  }
}
