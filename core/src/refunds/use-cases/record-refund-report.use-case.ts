import { isPriced, type PaymentFunds } from '../../funds';
import type { ChannelRefundStatus, PaymentIntentRepository, RefundFailureCode } from '../../payments';
import type { AccountScope, Clock, RandomSource, UnitOfWork } from '../../common';
import { CoreError, notFound } from '../../common';
import { publishEvent, type EventPublishDeps } from '../../webhooks';
import { isFinal, type Refund } from '../domain/refund.entity';
import type { RefundRepository } from '../ports/refund.repository.port';
import { refundEvent } from './refund-events';

/** The ports a refund change writes through, all inside one unit of work. */
export interface RefundWriteDeps extends EventPublishDeps {
  readonly uow: UnitOfWork;
  readonly refunds: RefundRepository;
  readonly intents: PaymentIntentRepository;
  readonly funds: PaymentFunds;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** What decides a refund: the channel's refund query (or its refusal to take the refund at all). */
export type RefundReport =
  | { readonly status: 'pending'; readonly channelRefundId?: string }
  | { readonly status: 'succeeded'; readonly channelRefundId?: string }
  | { readonly status: 'failed'; readonly failureCode: RefundFailureCode; readonly channelRefundId?: string };

/**
 * Applies what the channel says of a refund: the one place a refund changes after it was made.
 * The intent's row is locked first (as every change of its money is), then the refund's, so
 * concurrent notices apply one after the other and a replayed one changes nothing. A success
 * publishes `refund.succeeded`; a failure gives the debit back (`PaymentFunds.refundFailed`: to
 * the hold while a dispute is open, to the chargeback once one was lost, else to available once
 * the payment was released, else to pending), lowers the intent's `amount_refunded` and publishes
 * `refund.failed`, in one transaction. A final refund never changes again.
 */
export class RecordRefundReport {
  constructor(private readonly deps: RefundWriteDeps) {}

  async execute(input: { refund: Refund; report: RefundReport }): Promise<Refund> {
    const { deps } = this;
    const scope: AccountScope = { merchantId: input.refund.merchantId, mode: input.refund.mode };
    const { report } = input;
    return deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const intent = await self.deps.intents.findByIdForUpdate(scope, input.refund.paymentIntentId);
      if (!intent) throw notFound('payment_intent', input.refund.paymentIntentId);
      const refund = await self.deps.refunds.findByIdForUpdate(scope, input.refund.id);
      if (!refund) throw notFound('refund', input.refund.id);
      if (isFinal(refund)) return refund;
      if (report.channelRefundId && refund.channelRefundId && report.channelRefundId !== refund.channelRefundId) {
        throw new CoreError('channel_error', 'unavailable', 'The channel answered about another refund.', { retryAfterSeconds: 5 });
      }
      const now = self.deps.clock.now();
      // The channel's id for the refund, learnt from its first answer that names it.
      const learnt = refund.channelRefundId === undefined && report.channelRefundId !== undefined;
      const known: Refund = learnt ? { ...refund, channelRefundId: report.channelRefundId } : refund;
      if (report.status === 'pending') {
        if (learnt) await self.deps.refunds.update({ ...known, updated: now });
        return known;
      }
      if (report.status === 'succeeded') {
        const succeeded: Refund = { ...known, status: 'succeeded', succeededAt: now, updated: now };
        await self.deps.refunds.update(succeeded);
        await publishEvent(self.deps, refundEvent(succeeded, 'refund.succeeded', self.deps.random, now), now);
        return succeeded;
      }
      const failed: Refund = { ...known, status: 'failed', failureCode: report.failureCode, updated: now };
      await self.deps.refunds.update(failed);
      // A refund is only made of a priced payment, so its intent is priced.
      if (isPriced(intent)) await self.deps.funds.refundFailed(intent, failed, now);
      await self.deps.intents.update({ ...intent, amountRefunded: Math.max(0, (intent.amountRefunded ?? 0) - failed.amount), updated: now });
      await publishEvent(self.deps, refundEvent(failed, 'refund.failed', self.deps.random, now), now);
      return failed;
    });
  }
}

/** What the channel's refund query says, as `RecordRefundReport` takes it. */
export function refundReportOf(status: ChannelRefundStatus): RefundReport {
  const { channelRefundId } = status;
  if (status.status === 'failed') return { status: 'failed', failureCode: status.failureCode ?? 'channel_declined', channelRefundId };
  return { status: status.status, channelRefundId };
}
