import type { AccountScope, Money } from '../../common';
import { ledgerTransaction, merchantAccount, platformAccount, type LedgerCauseType, type LedgerTransaction, type MerchantBucket } from './ledger';

/**
 * The journal transactions of every money movement (docs/ledger.md, Postings).
 * Each names its cause, so posting it again (a replayed callback, a job run twice) posts nothing.
 * All amounts are in the merchant's settlement currency.
 */

/** A priced payment: what the ledger needs of a succeeded intent. */
export interface PricedPayment {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: AccountScope['mode'];
  readonly net: Money;
  readonly fee: Money;
}

/** A payment is booked: the channel owes us the gross, the merchant's net waits in pending, the fee is ours. */
export function paymentPosting(payment: PricedPayment, now: Date): LedgerTransaction {
  const currency = payment.net.currency;
  return ledgerTransaction({
    causeType: 'payment',
    causeId: payment.id,
    merchantId: payment.merchantId,
    mode: payment.mode,
    created: now,
    entries: [
      { account: platformAccount(payment.mode, 'channel_clearing', currency), amount: -(payment.net.amount + payment.fee.amount), currency },
      { account: merchantAccount(payment, 'pending', currency), amount: payment.net.amount, currency },
      { account: platformAccount(payment.mode, 'fee_revenue', currency), amount: payment.fee.amount, currency },
    ],
  });
}

/**
 * The release timer fired: what of the payment's net is still in pending (`money`: the net, less
 * what refunds and a dispute took from pending meanwhile) moves to available.
 */
export function releasePosting(payment: PricedPayment, now: Date, money: Money = payment.net): LedgerTransaction {
  return move({ causeType: 'release', causeId: payment.id, scope: payment, money, from: 'pending', to: 'available', now });
}

export interface DisputeHold {
  readonly disputeId: string;
  readonly scope: AccountScope;
  /** The intent's net, frozen while the dispute is open. */
  readonly held: Money;
}

/** A dispute opened: its hold leaves `from` (available once released, else pending) for dispute_hold. */
export function disputeOpenedPosting(hold: DisputeHold, from: 'available' | 'pending', now: Date): LedgerTransaction {
  return move({ causeType: 'dispute_opened', causeId: hold.disputeId, scope: hold.scope, money: hold.held, from, to: 'dispute_hold', now });
}

/** A dispute won: the hold goes back to `to` (available once the payment was released, else pending). */
export function disputeWonPosting(hold: DisputeHold, to: 'available' | 'pending', now: Date): LedgerTransaction {
  return move({ causeType: 'dispute_won', causeId: hold.disputeId, scope: hold.scope, money: hold.held, from: 'dispute_hold', to, now });
}

/** A dispute lost: the channel takes the hold back, and the dispute fee is debited from available (which may go negative). */
export function disputeLostPosting(hold: DisputeHold, fee: Money, now: Date): LedgerTransaction {
  const { scope, held } = hold;
  return ledgerTransaction({
    causeType: 'dispute_lost',
    causeId: hold.disputeId,
    merchantId: scope.merchantId,
    mode: scope.mode,
    created: now,
    entries: [
      { account: merchantAccount(scope, 'dispute_hold', held.currency), amount: -held.amount, currency: held.currency },
      { account: platformAccount(scope.mode, 'dispute_losses', held.currency), amount: held.amount, currency: held.currency },
      { account: merchantAccount(scope, 'available', fee.currency), amount: -fee.amount, currency: fee.currency },
      { account: platformAccount(scope.mode, 'fee_revenue', fee.currency), amount: fee.amount, currency: fee.currency },
    ],
  });
}

/** The cause of the claim on an intent's net booked outside a hold (`disputeClaimPosting`): one per intent. */
export function disputeClaimCause(paymentIntentId: string): string {
  return `dispute_claim:${paymentIntentId}`;
}

/**
 * A dispute was lost that held nothing, because it opened before the payment was priced (wallets
 * lock their rate when the channel settles): the channel took the payment back all the same, so
 * its net leaves `from` (available once released, else pending) for dispute_losses as soon as
 * both the loss and the net exist. Caused by the intent, so the net is taken once however many
 * disputes it had.
 */
export function disputeClaimPosting(payment: PricedPayment, from: 'available' | 'pending', now: Date): LedgerTransaction {
  const { net } = payment;
  return ledgerTransaction({
    causeType: 'dispute_claim',
    causeId: payment.id,
    merchantId: payment.merchantId,
    mode: payment.mode,
    created: now,
    entries: [
      { account: merchantAccount(payment, from, net.currency), amount: -net.amount, currency: net.currency },
      { account: platformAccount(payment.mode, 'dispute_losses', net.currency), amount: net.amount, currency: net.currency },
    ],
  });
}

export interface SettlementAmount {
  readonly settlementId: string;
  readonly scope: AccountScope;
  readonly amount: Money;
}

/** A settlement created: its amount leaves available and is in transit to the merchant's bank. */
export function settlementCreatedPosting(settlement: SettlementAmount, now: Date): LedgerTransaction {
  const { scope, amount } = settlement;
  return transfer(
    'settlement_created',
    settlement.settlementId,
    scope,
    amount,
    merchantAccount(scope, 'available', amount.currency),
    platformAccount(scope.mode, 'payouts_in_transit', amount.currency),
    now,
  );
}

/** A settlement paid: the money left the platform's clearing funds for the merchant's bank. */
export function settlementPaidPosting(settlement: SettlementAmount, now: Date): LedgerTransaction {
  const { scope, amount } = settlement;
  return transfer(
    'settlement_paid',
    settlement.settlementId,
    scope,
    amount,
    platformAccount(scope.mode, 'payouts_in_transit', amount.currency),
    platformAccount(scope.mode, 'channel_clearing', amount.currency),
    now,
  );
}

/** A settlement failed: its amount returns to available. */
export function settlementFailedPosting(settlement: SettlementAmount, now: Date): LedgerTransaction {
  const { scope, amount } = settlement;
  return transfer(
    'settlement_failed',
    settlement.settlementId,
    scope,
    amount,
    platformAccount(scope.mode, 'payouts_in_transit', amount.currency),
    merchantAccount(scope, 'available', amount.currency),
    now,
  );
}

/** A payer's second payment of an intent: the attempt that took it and what it took, in the currency paid. */
export interface DuplicatePayment {
  readonly attemptId: string;
  readonly scope: AccountScope;
  readonly amount: Money;
}

/**
 * A second attempt of an already paid intent succeeded: the channel collected the money for us
 * (channel_clearing), and it is owed back to the payer (payer_refunds_due), not to the merchant,
 * whose order was paid once. In the currency the payer paid, since it goes back unconverted.
 */
export function duplicatePaymentPosting(payment: DuplicatePayment, now: Date): LedgerTransaction {
  const { scope, amount } = payment;
  return transfer(
    'duplicate_payment',
    payment.attemptId,
    scope,
    amount,
    platformAccount(scope.mode, 'channel_clearing', amount.currency),
    platformAccount(scope.mode, 'payer_refunds_due', amount.currency),
    now,
  );
}

/** A refund's cost to the merchant, `debit`, as the refund books it or its failure gives it back. */
export interface RefundDebit {
  readonly refundId: string;
  readonly scope: AccountScope;
  readonly debit: Money;
}

/**
 * A refund was made: its debit (the merchant's share of the net, settlement currency) leaves
 * `from` (available once the payment was released, else pending; available may go negative, and
 * the next settlement nets it) for the channel's clearing funds it goes back to the payer from.
 * The fee stays the platform's: fee_revenue is not touched.
 */
export function refundPosting(refund: RefundDebit, from: 'available' | 'pending', now: Date): LedgerTransaction {
  const { scope, debit } = refund;
  return transfer(
    'refund',
    refund.refundId,
    scope,
    debit,
    merchantAccount(scope, from, debit.currency),
    platformAccount(scope.mode, 'channel_clearing', debit.currency),
    now,
  );
}

/** A refund failed: its debit comes back to `to` (available once the payment was released, else pending). */
export function refundFailedPosting(refund: RefundDebit, to: 'available' | 'pending', now: Date): LedgerTransaction {
  const { scope, debit } = refund;
  return transfer(
    'refund_failed',
    refund.refundId,
    scope,
    debit,
    platformAccount(scope.mode, 'channel_clearing', debit.currency),
    merchantAccount(scope, to, debit.currency),
    now,
  );
}

/** Moves `money` from one merchant bucket to another. */
function move(input: {
  causeType: 'release' | 'dispute_opened' | 'dispute_won';
  causeId: string;
  scope: AccountScope;
  money: Money;
  from: MerchantBucket;
  to: MerchantBucket;
  now: Date;
}): LedgerTransaction {
  const { scope, money } = input;
  return transfer(
    input.causeType,
    input.causeId,
    scope,
    money,
    merchantAccount(scope, input.from, money.currency),
    merchantAccount(scope, input.to, money.currency),
    input.now,
  );
}

/** Two legs: `money` debited from `from` and credited to `to`. */
function transfer(causeType: LedgerCauseType, causeId: string, scope: AccountScope, money: Money, from: string, to: string, now: Date): LedgerTransaction {
  return ledgerTransaction({
    causeType,
    causeId,
    merchantId: scope.merchantId,
    mode: scope.mode,
    created: now,
    entries: [
      { account: from, amount: -money.amount, currency: money.currency },
      { account: to, amount: money.amount, currency: money.currency },
    ],
  });
}

/** The intent as the ledger sees it, once priced (fee and net known); undefined before its rate locked. */
export function pricedPayment(intent: { id: string; merchantId: string; mode: AccountScope['mode']; net?: Money; fee?: Money }): PricedPayment | undefined {
  if (!intent.net || !intent.fee) return undefined;
  return { id: intent.id, merchantId: intent.merchantId, mode: intent.mode, net: intent.net, fee: intent.fee };
}
