import type { AccountScope, Money } from '../../common';
import {
  ledgerTransaction,
  MERCHANT_BUCKETS,
  merchantAccount,
  PLATFORM_ACCOUNT_NAMES,
  platformAccount,
  type ChannelMovement,
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

/** What a channel collected for a payment: the succeeded attempt (our reference at the channel) and what the payer paid. */
export interface ChannelPayment {
  readonly channel: string;
  readonly attemptId: string;
  /** In the currency the payer paid (the attempt's). */
  readonly amount: Money;
}

/** The channel movement of a payment the channel collected. */
function collected(payment: ChannelPayment): ChannelMovement {
  return { channel: payment.channel, kind: 'payment', reference: payment.attemptId, amount: payment.amount.amount, currency: payment.amount.currency };
}

/**
 * A payment is booked: the channel owes us the gross, the merchant's net waits in pending, the fee
 * is ours. With `paidBy`, the posting carries what the channel collected (its channel movement).
 */
export function paymentPosting(payment: PricedPayment, now: Date, paidBy?: ChannelPayment): LedgerTransaction {
  const currency = payment.net.currency;
  return paymentTransaction(
    'payment',
    payment.id,
    payment,
    now,
    [
      { account: platformAccount(payment.mode, 'channel_clearing', currency), amount: -(payment.net.amount + payment.fee.amount), currency },
      { account: merchantAccount(payment, 'pending', currency), amount: payment.net.amount, currency },
      { account: platformAccount(payment.mode, 'fee_revenue', currency), amount: payment.fee.amount, currency },
    ],
    paidBy && collected(paidBy),
  );
}

/** One payment's money in the scope's buckets, as `Ledger.paymentShares` reads it. */
export type PaymentShares = Readonly<Record<MerchantBucket, bigint>>;

/**
 * A move of one payment's money between the merchant's buckets (and, for the money that leaves,
 * the platform's accounts): the cause names the event, `paymentIntentId` the payment, so the
 * payment's shares stay readable from the journal. Every leg is signed, credit positive.
 */
export interface PaymentMove {
  readonly causeType: LedgerCauseType;
  readonly causeId: string;
  readonly scope: AccountScope;
  readonly paymentIntentId: string;
  readonly currency: string;
  readonly merchant?: Partial<Record<MerchantBucket, number>>;
  readonly platform?: Partial<Record<PlatformAccountName, number>>;
}

/** The transaction of a payment's money move. */
export function paymentMovePosting(move: PaymentMove, now: Date): LedgerTransaction {
  const { scope, currency } = move;
  const merchant = move.merchant ?? {};
  const platform = move.platform ?? {};
  const entries: LedgerEntry[] = [
    ...MERCHANT_BUCKETS.map((bucket) => ({ account: merchantAccount(scope, bucket, currency), amount: merchant[bucket] ?? 0, currency })),
    ...PLATFORM_ACCOUNT_NAMES.map((name) => ({ account: platformAccount(scope.mode, name, currency), amount: platform[name] ?? 0, currency })),
  ];
  return ledgerTransaction({
    causeType: move.causeType,
    causeId: move.causeId,
    merchantId: scope.merchantId,
    mode: scope.mode,
    paymentIntentId: move.paymentIntentId,
    created: now,
    entries,
  });
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
  /** The channel that collected it; with it, the posting carries the channel movement. */
  readonly channel?: string;
}

/**
 * A second attempt of an already paid intent succeeded: the channel collected the money for us
 * (channel_clearing), and it is owed back to the payer (payer_refunds_due), not to the merchant,
 * whose order was paid once. In the currency the payer paid, since it goes back unconverted.
 */
export function duplicatePaymentPosting(payment: DuplicatePayment, now: Date): LedgerTransaction {
  const tx = transfer('duplicate_payment', payment.attemptId, payment, now, platform('channel_clearing'), platform('payer_refunds_due'));
  if (payment.channel === undefined) return tx;
  return ledgerTransaction({ ...tx, channelMovement: collected({ channel: payment.channel, attemptId: payment.attemptId, amount: payment.amount }) });
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

/** The transaction of `entries` that moves the payment's own money (with what the channel moved, when it mirrors the channel). */
function paymentTransaction(
  causeType: LedgerCauseType,
  causeId: string,
  payment: PricedPayment,
  now: Date,
  entries: LedgerEntry[],
  channelMovement?: ChannelMovement,
): LedgerTransaction {
  return ledgerTransaction({
    causeType,
    causeId,
    merchantId: payment.merchantId,
    mode: payment.mode,
    paymentIntentId: payment.id,
    created: now,
    entries,
    ...(channelMovement ? { channelMovement } : {}),
  });
}

/** The intent as the ledger sees it, once priced (fee and net known); undefined before its rate locked. */
export function pricedPayment(intent: { id: string; merchantId: string; mode: AccountScope['mode']; net?: Money; fee?: Money }): PricedPayment | undefined {
  if (!intent.net || !intent.fee) return undefined;
  return { id: intent.id, merchantId: intent.merchantId, mode: intent.mode, net: intent.net, fee: intent.fee };
}
