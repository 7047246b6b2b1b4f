import type { AuditRecorder, NoticeOutbox, StepUp, User } from '../../dashboard';
import type { MerchantRepository } from '../../merchants';
import type { Clock, Mode, RandomSource, UnitOfWork } from '../../common';
import { CoreError, notFound } from '../../common';
import { PAYOUT_HOLD_MS, type PayoutDestination } from '../domain/payout-destination.entity';
import type { PayoutDestinationRepository } from '../ports/payout-destination.repository.port';
import { payoutAudit, payoutNotice } from './payout-notice';
export interface SetDefaultPayoutDestinationDeps {
  readonly uow: UnitOfWork;
  readonly merchants: MerchantRepository;
  readonly destinations: PayoutDestinationRepository;
  readonly notices: NoticeOutbox;
  readonly stepUp: StepUp;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/**
 * Sends the mode's settlements to another destination (or the same one again). The one-time code
 * comes first (403 `mfa_code_invalid`, counted and throttled by StepUp); an unknown destination, or one of another merchant or
 * mode, is 404; an unverified one 409 `destination_unverified`. In live mode the 24-hour hold is
 * armed again. The change, its notice and the audit entry commit together.
 */
export class SetDefaultPayoutDestination {
  constructor(private readonly deps: SetDefaultPayoutDestinationDeps) {}

  execute(actor: User, input: { mode: Mode; id: string; code: string | undefined }): Promise<PayoutDestination> {
    const scope = { merchantId: actor.merchantId, mode: input.mode };
    return this.deps.stepUp.guard(actor, () =>
      this.deps.uow.run(async (transaction) => {
        const self = transaction.bind(this);
        await self.deps.stepUp.verify(actor, input.code);
        const merchant = await self.deps.merchants.findById(actor.merchantId);
        const target = await self.deps.destinations.findById(scope, input.id);
        if (!merchant || !target) throw notFound('payout destination', input.id);
        if (target.status !== 'verified') {
          throw new CoreError('destination_unverified', 'conflict', 'This payout destination is not verified yet; it can become the default once it is.', {
            param: 'id',
          });
        }
        const now = self.deps.clock.now();
        const holdUntil = input.mode === 'live' ? new Date(now.getTime() + PAYOUT_HOLD_MS) : undefined;
        const updated = await self.deps.destinations.makeDefault(scope, target.id, holdUntil);
        if (!updated) throw notFound('payout destination', input.id);
        await self.deps.notices.append(payoutNotice('payout_destination.default_changed', merchant, actor, updated, now, self.deps.random));
        await self.deps.audit.record(payoutAudit(actor, updated, 'default_changed'));
        return updated;
      }),
    );
  }
}
