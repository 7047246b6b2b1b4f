import type { AuditActor, AuditRecorder } from '../../dashboard';
import { isPriced, refundShares, type PaymentDisputes, type PricedFigures } from '../../funds';
import type { ChannelCallbackSettings, PaymentAttemptRepository, PaymentChannelRegistry, PaymentIntent } from '../../payments';
import { callbackUrl } from '../../payments';
import type { AccountScope, Metadata, Recovery } from '../../common';
import { assertAmount, CoreError, isCoreError, isOneOf, newId, notFound, validateMetadata } from '../../common';
import { publishEvent } from '../../webhooks';
import { REFUND_REASONS, refundExceedsRemaining, type Refund, type RefundReason } from '../domain/refund.entity';
import type { RecordRefundReport, RefundWriteDeps } from './record-refund-report.use-case';
import { refundEvent } from './refund-events';

/** Intent statuses that hold money a refund can give back. */
const REFUNDABLE = ['succeeded', 'channel_settled'] as const;

export type CreateRefundDeps = RefundWriteDeps & {
  readonly attempts: PaymentAttemptRepository;
  /** All of the payment's disputes: any open one freezes it, a lost one took it back. */
  readonly disputes: PaymentDisputes;
  readonly channels: PaymentChannelRegistry;
  readonly settings: ChannelCallbackSettings;
  /** Records what the channel answers to the placement. */
  readonly recordReport: RecordRefundReport;
  readonly audit: AuditRecorder;
};

export interface CreateRefundInput {
  readonly scope: AccountScope;
  readonly paymentIntentId: string;
  /** Minor units of the intent's currency; the whole refundable remainder when left out. */
  readonly amount?: number;
  readonly reason?: string;
  readonly metadata?: Record<string, unknown>;
  /** A dashboard user asking: the refund is audited in the transaction that records it (`refunds.write`). */
  readonly actor?: AuditActor;
  /** The request's recovery point: the refund is bound to its key where it is recorded, and a retry resumes with it. */
  readonly recovery?: Recovery;
}

/**
 * `POST /v1/refunds`. Two short transactions around the channel call, as for attempts: the first
 * checks the rules under the intent's row lock (so two refunds racing for the same remainder run
 * one after the other and the second sees the first), records the refund `pending`, books its
 * debit, raises the intent's `amount_refunded` and publishes `refund.created`; then the refund is
 * placed at the channel (idempotent on the refund id); the second records what the channel
 * answered. A channel that cannot be reached leaves the refund pending: the refund reconciler
 * places it again. A channel that refuses fails it, and the failure gives the debit back. The
 * first transaction also binds the refund to the request's Idempotency-Key (its recovery point): a
 * retry after any later failure resumes with that refund and never makes a second one.
 */
export class CreateRefund {
  constructor(private readonly deps: CreateRefundDeps) {}

  async execute(input: CreateRefundInput): Promise<Refund> {
    if (input.recovery?.resume !== undefined) return this.resume(input.scope, input.recovery.resume);
    if (input.amount !== undefined) assertAmount(input.amount, 'amount');
    if (input.reason !== undefined && !isOneOf(REFUND_REASONS, input.reason)) {
      throw new CoreError('invalid_parameter', 'validation', `reason must be one of ${REFUND_REASONS.join(', ')}.`, { param: 'reason' });
    }
    const metadata = validateMetadata(input.metadata ?? {});
    const refund = await this.record(input, metadata, input.reason);
    return placeRefund(this.deps, refund);
  }

  private record(input: CreateRefundInput, metadata: Metadata, reason: RefundReason | undefined): Promise<Refund> {
    const { deps } = this;
    const { scope } = input;
    return deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const intent = await self.deps.intents.findByIdForUpdate(scope, input.paymentIntentId);
      if (!intent) throw notFound('payment_intent', input.paymentIntentId, 'payment_intent');
      const priced = refundablePayment(intent);
      await self.assertNotDisputed(intent);
      const attempt = await self.deps.attempts.findSucceeded(scope, intent.id);
      if (!attempt?.channelOrderId) throw notRefundable(`Payment intent ${intent.id} has no paid order at a channel to refund.`);

      const totals = await self.deps.refunds.totalsForIntent(scope, intent.id);
      const remaining = intent.amount - totals.refunded;
      const amount = input.amount ?? remaining;
      if (remaining <= 0 || amount > remaining) throw refundExceedsRemaining(Math.max(0, remaining), intent.currency);

      const now = self.deps.clock.now();
      const debitedFrom = intent.releasedAt ? 'available' : 'pending';
      const { debit, cleared } = refundShares(priced, amount, totals);
      const refund: Refund = {
        id: newId(self.deps.random, 'refund'),
        merchantId: scope.merchantId,
        mode: scope.mode,
        paymentIntentId: intent.id,
        amount,
        currency: intent.currency,
        status: 'pending',
        ...(reason ? { reason } : {}),
        metadata,
        debit,
        cleared,
        debitedFrom,
        channel: attempt.channel,
        channelOrderId: attempt.channelOrderId,
        created: now,
        updated: now,
      };
      await self.deps.refunds.insert(refund);
      await input.recovery?.bind(refund.id, transaction);
      await self.deps.funds.refundMade(priced, refund, now);
      await self.deps.intents.update({ ...intent, amountRefunded: totals.refunded + amount, updated: now });
      await publishEvent(self.deps, refundEvent(refund, 'refund.created', self.deps.random, now), now);
      if (input.actor) {
        await self.deps.audit.recordAction(
          input.actor,
          'refunds.write',
          { type: 'refund', id: refund.id },
          { change: 'created', mode: scope.mode, payment_intent: intent.id, amount, currency: intent.currency },
        );
      }
      return refund;
    });
  }

  /**
   * A retry of a request whose refund was recorded (its key's recovery point): that refund, placed
   * at its channel first if no placement was recorded (the channel is idempotent on the refund
   * id), else as it stands. Never a second refund.
   */
  private async resume(scope: AccountScope, id: string): Promise<Refund> {
    const refund = await this.deps.refunds.findById(scope, id);
    if (!refund) throw notFound('refund', id);
    return refund.status === 'pending' && refund.channelRefundId === undefined ? placeRefund(this.deps, refund) : refund;
  }

  /** An open dispute freezes the payment (409 `payment_disputed`); a lost one took it back whole. */
  private async assertNotDisputed(intent: PaymentIntent): Promise<void> {
    const disputes = await this.deps.disputes.ofPayment(intent, intent.id);
    const open = disputes.find((dispute) => dispute.state === 'open');
    if (open) {
      throw new CoreError(
        'payment_disputed',
        'conflict',
        `Payment intent ${intent.id} has an open dispute (${open.id}); it cannot be refunded until it is ruled.`,
      );
    }
    const lost = disputes.find((dispute) => dispute.state === 'lost');
    if (lost) {
      throw new CoreError(
        'refund_exceeds_remaining',
        'conflict',
        `Payment intent ${intent.id} lost a dispute (${lost.id}): the channel took the payment back, and nothing is left to refund.`,
        { param: 'amount' },
      );
    }
  }
}

/**
 * Places a pending refund at its channel and records the answer: `placed` stores the channel's id
 * (the refund stays pending until the channel reports), `refused` fails it. Throws nothing for an
 * unreachable channel: the refund is answered pending, and the reconciler places it again.
 */
export async function placeRefund(deps: CreateRefundDeps, refund: Refund): Promise<Refund> {
  const channel = deps.channels.find(refund.channel);
  if (!channel?.placeRefund) return deps.recordReport.execute({ refund, report: { status: 'failed', failureCode: 'channel_declined' } });
  let result;
  try {
    result = await channel.placeRefund({
      mode: refund.mode,
      reference: refund.id,
      channelOrderId: refund.channelOrderId,
      amount: refund.amount,
      currency: refund.currency,
      ...(refund.reason ? { reason: refund.reason } : {}),
      callbackUrl: callbackUrl(deps.settings, channel.capabilities.name, refund.mode),
    });
  } catch (error) {
    if (isCoreError(error) && error.category === 'unavailable') return refund;
    throw error;
  }
  if (result.outcome === 'refused') return deps.recordReport.execute({ refund, report: { status: 'failed', failureCode: result.failureCode } });
  return deps.recordReport.execute({ refund, report: { status: 'pending', channelRefundId: result.channelRefundId } });
}

/**
 * The intent, when it can be refunded: paid (succeeded or channel_settled) and priced. A payment
 * whose exchange rate locks when the channel settles has no net before that, and the refund's
 * cost to the merchant cannot be known until then.
 */
function refundablePayment(intent: PaymentIntent): PaymentIntent & PricedFigures {
  if (!isOneOf(REFUNDABLE, intent.status)) {
    throw notRefundable(`A payment intent in status '${intent.status}' has no payment to refund; only succeeded and channel_settled ones do.`);
  }
  if (!isPriced(intent)) {
    throw notRefundable(
      `Payment intent ${intent.id} is not priced yet: its exchange rate locks when the channel settles it. Refund it once it is channel_settled.`,
    );
  }
  return intent;
}

function notRefundable(message: string): CoreError {
  return new CoreError('invalid_state_transition', 'conflict', message);
}
