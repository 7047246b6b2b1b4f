import type { AccountScope, Money } from '../../common';
import {
  ledgerTransaction,
  merchantAccount,
  platformAccount,
  type LedgerCauseType,
  type LedgerEntry,
  type LedgerTransaction,
  type MerchantBucket,
  type PlatformAccountName,
} from './ledger';

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
  return posting('payment', payment.id, payment, now, [
    { account: platformAccount(payment.mode, 'channel_clearing', currency), amount: -(payment.net.amount + payment.fee.amount), currency },
    { account: merchantAccount(payment, 'pending', currency), amount: payment.net.amount, currency },
    { account: platformAccount(payment.mode, 'fee_revenue', currency), amount: payment.fee.amount, currency },
  ]);
}

/**
 * The release timer fired: what of the payment's net is still in pending (`money`: the net, less
 * what refunds and a dispute took from pending meanwhile) moves to available.
 */
export function releasePosting(payment: PricedPayment, now: Date, money: Money = payment.net): LedgerTransaction {
  return posting('release', payment.id, payment, now, legs(payment, money, merchant('pending'), merchant('available')));
}

export interface DisputeHold {
  readonly disputeId: string;
  readonly scope: AccountScope;
  /** The intent's net, frozen while the dispute is open. */
  readonly held: Money;
}

/** A dispute opened: its hold leaves `from` (available once released, else pending) for dispute_hold. */
export function disputeOpenedPosting(hold: DisputeHold, from: 'available' | 'pending', now: Date): LedgerTransaction {
  return posting('dispute_opened', hold.disputeId, hold.scope, now, legs(hold.scope, hold.held, merchant(from), merchant('dispute_hold')));
}

/** A dispute won: the hold goes back to `to` (available once the payment was released, else pending). */
export function disputeWonPosting(hold: DisputeHold, to: 'available' | 'pending', now: Date): LedgerTransaction {
  return posting('dispute_won', hold.disputeId, hold.scope, now, legs(hold.scope, hold.held, merchant('dispute_hold'), merchant(to)));
}

/** A dispute lost: the channel takes the hold back, and the dispute fee is debited from available (which may go negative). */
export function disputeLostPosting(hold: DisputeHold, fee: Money, now: Date): LedgerTransaction {
  const { scope, held } = hold;
  return posting('dispute_lost', hold.disputeId, scope, now, [
    ...legs(scope, held, merchant('dispute_hold'), platform('dispute_losses')),
    ...legs(scope, fee, merchant('available'), platform('fee_revenue')),
  ]);
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
  return posting('dispute_claim', payment.id, payment, now, legs(payment, payment.net, merchant(from), platform('dispute_losses')));
}

export interface SettlementAmount {
  readonly settlementId: string;
  readonly scope: AccountScope;
  readonly amount: Money;
}

/** A settlement created: its amount leaves available and is in transit to the merchant's bank. */
export function settlementCreatedPosting(settlement: SettlementAmount, now: Date): LedgerTransaction {
  return transfer('settlement_created', settlement.settlementId, settlement, now, merchant('available'), platform('payouts_in_transit'));
}

/** A settlement paid: the money left the platform's clearing funds for the merchant's bank. */
export function settlementPaidPosting(settlement: SettlementAmount, now: Date): LedgerTransaction {
  return transfer('settlement_paid', settlement.settlementId, settlement, now, platform('payouts_in_transit'), platform('channel_clearing'));
}

/** A settlement failed: its amount returns to available. */
export function settlementFailedPosting(settlement: SettlementAmount, now: Date): LedgerTransaction {
  return transfer('settlement_failed', settlement.settlementId, settlement, now, platform('payouts_in_transit'), merchant('available'));
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
  return transfer('duplicate_payment', payment.attemptId, payment, now, platform('channel_clearing'), platform('payer_refunds_due'));
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
  return posting('refund', refund.refundId, refund.scope, now, legs(refund.scope, refund.debit, merchant(from), platform('channel_clearing')));
}

/** A refund failed: its debit comes back to `to` (available once the payment was released, else pending). */
export function refundFailedPosting(refund: RefundDebit, to: 'available' | 'pending', now: Date): LedgerTransaction {
  return posting('refund_failed', refund.refundId, refund.scope, now, legs(refund.scope, refund.debit, platform('channel_clearing'), merchant(to)));
}

/** An amount that moves between two accounts of a scope. */
interface Movement {
  readonly scope: AccountScope;
  readonly amount: Money;
}

/** An account of a scope, in a currency. */
type AccountIn = (scope: AccountScope, currency: string) => string;

/** The scope's merchant bucket. */
function merchant(bucket: MerchantBucket): AccountIn {
  return (scope, currency) => merchantAccount(scope, bucket, currency);
}

/** The platform's account of the scope's mode. */
function platform(name: PlatformAccountName): AccountIn {
  return (scope, currency) => platformAccount(scope.mode, name, currency);
}

/** Two legs: `money` debited from the scope's `from` account and credited to its `to` account. */
function legs(scope: AccountScope, money: Money, from: AccountIn, to: AccountIn): LedgerEntry[] {
  return [
    { account: from(scope, money.currency), amount: -money.amount, currency: money.currency },
    { account: to(scope, money.currency), amount: money.amount, currency: money.currency },
  ];
}

/** The transaction of two legs: `movement.amount` debited from the scope's `from` account and credited to its `to` account. */
function transfer(causeType: LedgerCauseType, causeId: string, movement: Movement, now: Date, from: AccountIn, to: AccountIn): LedgerTransaction {
  return posting(causeType, causeId, movement.scope, now, legs(movement.scope, movement.amount, from, to));
}

/** The transaction of `entries` that the cause books in the scope's merchant and mode. */
function posting(causeType: LedgerCauseType, causeId: string, scope: AccountScope, now: Date, entries: LedgerEntry[]): LedgerTransaction {
  return ledgerTransaction({ causeType, causeId, merchantId: scope.merchantId, mode: scope.mode, created: now, entries });
}

/** The intent as the ledger sees it, once priced (fee and net known); undefined before its rate locked. */
export function pricedPayment(intent: { id: string; merchantId: string; mode: AccountScope['mode']; net?: Money; fee?: Money }): PricedPayment | undefined {
  if (!intent.net || !intent.fee) return undefined;
  return { id: intent.id, merchantId: intent.merchantId, mode: intent.mode, net: intent.net, fee: intent.fee };
}
