import type { PaymentPricing } from '../../fx';
import type { PaymentFunds } from '../../funds';
import type { ChannelPayment } from '../../ledger';
import type { MerchantRepository } from '../../merchants';
import type { AccountScope, OperatorAlerts, UnitOfWork } from '../../common';
import { notFound } from '../../common';
import { describeFailure, type PaymentAttempt } from '../domain/payment-attempt.entity';
import type { PaymentIntent, PaymentIntentStatus } from '../domain/payment-intent.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { ChannelOrderStatus } from '../ports/payment-channel.port';
import { changeStatus, type StatusChangeDeps } from './payment-intent-status-change';

/** Intent statuses in which a payer holds a live credential. */
const AWAITING_PAYER: readonly PaymentIntentStatus[] = ['requires_payment', 'processing'];

/** Intent statuses in which the intent is paid: a success of another attempt then is a second payment. */
const PAID: readonly PaymentIntentStatus[] = ['succeeded', 'channel_settled'];
export type RecordChannelReportDeps = StatusChangeDeps & {
  readonly uow: UnitOfWork;
  readonly attempts: PaymentAttemptRepository;
  readonly merchants: MerchantRepository;
  readonly pricing: PaymentPricing;
  readonly funds: PaymentFunds;
  readonly alerts: OperatorAlerts;
};

/**
 * Applies what the channel's confirming query says about an attempt's order: the one place a
 * payment succeeds or fails. Callbacks, the reconciler and simulations all end here, so the same
 * report applied twice changes nothing the second time, and money the channel confirms is never
 * dropped (a success moves the intent to succeeded from any status but the settled ones). A
 * priced success is booked in the ledger in the same transaction.
 *
 * A success of an attempt whose intent another attempt already paid (a payer who paid an expired
 * or failed attempt after all, and then a new one) is a second payment of one order: the attempt
 * succeeds and names the one that paid (`duplicateOf`), the amount is booked as owed back to the
 * payer (`duplicate_payment`), the intent and the merchant's balance stay as they are, and the
 * operators are alerted once it committed. Nothing is refunded automatically (no channel refund
 * exists yet); `payments duplicates` in the admin CLI lists what is owed.
 */
export class RecordChannelReport {
  constructor(private readonly deps: RecordChannelReportDeps) {}

  async execute(input: { attempt: PaymentAttempt; report: ChannelOrderStatus }): Promise<PaymentIntent> {
    const { attempt: known, report } = input;
    const scope: AccountScope = { merchantId: known.merchantId, mode: known.mode };
    const merchant = await this.deps.merchants.findById(known.merchantId);
    if (!merchant) throw notFound('merchant', known.merchantId);
    const before = await this.deps.intents.findById(scope, known.paymentIntentId);
    // A remote rate source is asked before the transaction opens, never inside it.
    const rate = report.status === 'paid' && before ? await this.deps.pricing.rateFor(before, merchant.settlementCurrency) : undefined;

    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const intent = await self.deps.intents.findByIdForUpdate(scope, known.paymentIntentId);
      const attempt = await self.deps.attempts.findById(scope, known.id);
      if (!intent || !attempt) throw notFound('payment_attempt', known.id);
      const now = self.deps.clock.now();
      const current = intent.status;

      if (report.status === 'paid' && report.amount === attempt.amount && report.currency === attempt.currency) {
        const alreadyPaid = PAID.includes(current);
        if (attempt.status !== 'succeeded') {
          const succeeded: PaymentAttempt = {
            ...attempt,
            status: 'succeeded',
            succeededAt: now,
            updated: now,
            nextCheckAt: undefined,
            failureCode: undefined,
            failureMessage: undefined,
          };
          if (alreadyPaid) return self.recordSecondPayment(succeeded, intent, now);
          await self.deps.attempts.update(succeeded);
        }
        if (alreadyPaid) return intent;
        const paid = self.deps.pricing.onPaid(
          { ...intent, paymentMethod: attempt.paymentMethod, nextAction: undefined },
          attempt.paymentMethod,
          merchant.settlementCurrency,
          rate,
        );
        const succeeded = await changeStatus(self.deps, paid, 'succeeded');
        // Booked with the success when priced now; a rate that locks at channel settlement books it then.
        await self.deps.funds.book(succeeded, now, paidBy(attempt));
        return succeeded;
      }

      if (attempt.status !== 'pending') return intent;
      const isCurrent = AWAITING_PAYER.includes(current);

      if (report.status === 'paid' || report.status === 'failed') {
        const mismatch = report.status === 'paid';
        await self.deps.attempts.update({
          ...attempt,
          status: 'failed',
          failureCode: mismatch ? 'channel_error' : (report.failureCode ?? 'channel_error'),
          failureMessage: mismatch
            ? `The channel confirmed ${report.amount} ${report.currency}, not the ordered ${attempt.amount} ${attempt.currency}.`
            : describeFailure(report.failureCode),
          nextCheckAt: undefined,
          updated: now,
        });
        return isCurrent ? changeStatus(self.deps, { ...intent, nextAction: undefined }, 'failed') : intent;
      }

      if (report.status === 'processing' && current === 'requires_payment') return changeStatus(self.deps, intent, 'processing');
      return intent;
    });
  }

  /** Inside the report's unit of work, with the intent's row locked. */
  private async recordSecondPayment(succeeded: PaymentAttempt, intent: PaymentIntent, now: Date): Promise<PaymentIntent> {
    const paidBy = await this.deps.attempts.findSucceeded(intent, intent.id);
    // Only a success of one of its attempts makes an intent paid, in the same transaction.
    if (!paidBy) throw new Error(`Payment intent ${intent.id} is ${intent.status} but none of its attempts succeeded.`);
    const duplicate = await this.deps.attempts.update({ ...succeeded, duplicateOf: paidBy.id });
    const scope: AccountScope = { merchantId: intent.merchantId, mode: intent.mode };
    await this.deps.funds.duplicatePayment(
      { attemptId: duplicate.id, scope, amount: { amount: duplicate.amount, currency: duplicate.currency }, channel: duplicate.channel },
      now,
    );
    this.deps.uow.afterCommit(async () =>
      this.deps.alerts.duplicatePayment({
        attemptId: duplicate.id,
        paymentIntentId: intent.id,
        merchantId: intent.merchantId,
        mode: intent.mode,
        amount: duplicate.amount,
        currency: duplicate.currency,
        channel: duplicate.channel,
        paidBy: paidBy.id,
      }),
    );
    return intent;
  }
}

/** What the channel collected for a succeeded attempt, as its payment's posting records it. */
export function paidBy(attempt: PaymentAttempt): ChannelPayment {
  return { channel: attempt.channel, attemptId: attempt.id, amount: { amount: attempt.amount, currency: attempt.currency } };
}
