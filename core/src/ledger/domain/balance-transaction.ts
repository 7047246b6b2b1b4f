import type { AccountScope } from '../../common';
import { CoreError, isOneOf } from '../../common';
import { MERCHANT_BUCKETS, parseAccountCode, type LedgerCauseType, type MerchantBucket, type PlatformAccountName } from './ledger';

/**
 * Balance transactions (docs/balance-transactions.md): the ledger as the merchant sees it. One line
 * per journal transaction with at least one entry on the scope's merchant accounts, derived on read
 * from the transaction and its entries; nothing is stored beside the journal, so the lines add up
 * to the balance by construction.
 */

/** What a line records, named for the merchant; each maps from the causes of `TYPE_CAUSES`. */
export const BALANCE_TRANSACTION_TYPES = [
  'payment',
  'release',
  'refund',
  'refund_reversal',
  'dispute_hold',
  'dispute_release',
  'dispute_loss',
  'settlement',
  'settlement_failure',
  'adjustment',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/**
 * The journal causes of each type. `adjustment` is every other cause that moves a merchant's
 * money (none does today): a cause added to the ledger shows as an adjustment until it gets a type.
 */
export const TYPE_CAUSES: Readonly<Record<Exclude<BalanceTransactionType, 'adjustment'>, readonly LedgerCauseType[]>> = {
  payment: ['payment'],
  release: ['release'],
  refund: ['refund'],
  refund_reversal: ['refund_failed'],
  dispute_hold: ['dispute_opened', 'dispute_hold'],
  dispute_release: ['dispute_won'],
  dispute_loss: ['dispute_lost', 'dispute_claim'],
  settlement: ['settlement_created'],
  settlement_failure: ['settlement_failed'],
};

/** Every cause some type names: what `adjustment` is not. */
export const TYPED_CAUSES: readonly LedgerCauseType[] = Object.values(TYPE_CAUSES).flat();

/** The type of a line whose transaction has `causeType`. */
export function balanceTransactionType(causeType: string): BalanceTransactionType {
  for (const type of BALANCE_TRANSACTION_TYPES) if (type !== 'adjustment' && TYPE_CAUSES[type].some((cause) => cause === causeType)) return type;
  return 'adjustment';
}

/** The platform accounts whose legs are the line's fee: the payment fee (and a lost dispute's fee) and a refund's fee share given back. */
const FEE_ACCOUNTS: readonly PlatformAccountName[] = ['fee_revenue', 'refunded_fees'];

/** Line ids are `txn_` and the journal transaction's sequence: stable, and saying nothing but order. */
export const BALANCE_TRANSACTION_ID = /^txn_([1-9][0-9]{0,15})$/;

export function balanceTransactionId(seq: number): string {
  return `txn_${seq}`;
}

/** The journal sequence a line id names, or undefined for anything that is not a line id. */
export function balanceTransactionSeq(id: string): number | undefined {
  const digits = BALANCE_TRANSACTION_ID.exec(id)?.[1];
  const seq = digits === undefined ? undefined : Number(digits);
  return seq !== undefined && Number.isSafeInteger(seq) ? seq : undefined;
}

/** One entry of a journal transaction, as a line reads it. */
export interface JournalRecordEntry {
  readonly account: string;
  readonly amount: number;
  readonly currency: string;
  /** On an entry of a merchant's available account: the settlement that covers it (or, for its own entry, is it). */
  readonly settlementId?: string;
}

/**
 * What storage reads for one line: the journal transaction with all its entries (the platform's
 * too: the fee is read from them), and what the line needs of the payment and refund it concerns.
 */
export interface JournalRecord {
  readonly seq: number;
  readonly causeType: string;
  readonly causeId: string;
  readonly paymentIntentId?: string;
  readonly created: Date;
  readonly entries: readonly JournalRecordEntry[];
  /** The payment the transaction names (`paymentIntentId`), when it does. */
  readonly payment?: {
    /** What the payer was asked for, in the currency the payer paid. */
    readonly amount: number;
    readonly currency: string;
    /** The rate its price locked at (units of the settlement currency per unit of `currency`), when it is in another currency. */
    readonly rate?: string;
    /** When its release timer fired. */
    readonly releasedAt?: Date;
    /** When its release timer is due, once the channel settled it. */
    readonly availableAt?: Date;
  };
  /** For a refund or its reversal: the refund's amount, in the currency the payer paid. */
  readonly refund?: { readonly amount: number; readonly currency: string };
}

/** What a line moved in a currency the payer paid, when it differs from the line's. */
export interface BalanceTransactionExchange {
  /** Minor units of `currency`, signed like the line's `amount`. */
  readonly amount: number;
  readonly currency: string;
  /** Decimal string: units of the line's currency for one unit of `currency`. */
  readonly rate: string;
}

/** One line: a journal transaction as it moved the merchant's money (schema BalanceTransaction in docs/openapi.json). */
export interface BalanceTransaction {
  readonly id: string;
  readonly seq: number;
  readonly type: BalanceTransactionType;
  /** `net + fee`: a payment's gross, a refund's whole amount (negative), a loss's taken amount (negative). */
  readonly amount: number;
  /** The fee legs: a payment's fee and a lost dispute's fee (positive), a refund's fee share given back (negative). */
  readonly fee: number;
  /** What the merchant's buckets gained in all (negative: lost). */
  readonly net: number;
  readonly currency: string;
  /** The signed change of each bucket; they sum to `net`. */
  readonly moves: Readonly<Record<MerchantBucket, number>>;
  /** The object that caused it: `pi_`, `re_`, `dp_` or `st_`. */
  readonly source: string;
  readonly paymentIntentId?: string;
  /** When the money is (or was) available: see `availableOn`. */
  readonly availableOn?: Date;
  /** The settlement that covers its movement of available money. */
  readonly settlementId?: string;
  readonly created: Date;
  readonly exchange?: BalanceTransactionExchange;
}

/** An integer sum that must fit what an answer shows exactly; past it is a bug of the ledger, not input. */
function exact(sum: bigint, what: string, seq: number): number {
  if (sum > BigInt(Number.MAX_SAFE_INTEGER) || sum < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new CoreError('ledger_unbalanced', 'internal', `Balance transaction txn_${seq}: ${what} ${sum} passes 2^53 − 1.`);
  }
  return Number(sum);
}

/**
 * When a line's money is (or was) available:
 * - a payment line: its release once released, else when its release is due if the channel
 *   settled it (the timer is set), else undefined;
 * - any other line that moved the available bucket: its `created`;
 * - any other (pending or hold only): undefined.
 */
export function availableOn(
  record: Pick<JournalRecord, 'causeType' | 'created' | 'payment'>,
  moves: Readonly<Record<MerchantBucket, number>>,
): Date | undefined {
  if (record.causeType === 'payment') return record.payment?.releasedAt ?? record.payment?.availableAt;
  return moves.available !== 0 ? record.created : undefined;
}

/**
 * The line of one journal transaction in `scope`, or undefined when none of its entries is on the
 * scope's merchant accounts (a chargeback, a payout paid, a payer's second payment: platform money
 * only). Generic over the legs, no arithmetic per type: `net` is the sum of the merchant legs,
 * `fee` the sum of the fee legs (fee_revenue, refunded_fees), `amount = net + fee`, so
 * `amount − fee = net` always. A transaction moves a merchant's money in one currency; one that
 * does not is a broken journal and throws.
 */
export function balanceTransactionOf(scope: AccountScope, record: JournalRecord): BalanceTransaction | undefined {
  const moves: Record<MerchantBucket, bigint> = { pending: 0n, available: 0n, dispute_hold: 0n };
  let currency: string | undefined;
  let settlementId: string | undefined;
  for (const entry of record.entries) {
    const account = parseAccountCode(entry.account);
    if (account?.kind !== 'merchant' || account.merchantId !== scope.merchantId || account.mode !== scope.mode) continue;
    if (currency !== undefined && currency !== entry.currency) {
      throw new CoreError('ledger_unbalanced', 'internal', `Balance transaction txn_${record.seq} moves merchant money in ${currency} and ${entry.currency}.`);
    }
    currency = entry.currency;
    moves[account.bucket] += BigInt(entry.amount);
    if (account.bucket === 'available' && entry.settlementId !== undefined) settlementId = entry.settlementId;
  }
  if (currency === undefined) return undefined;
  let fee = 0n;
  for (const entry of record.entries) {
    const account = parseAccountCode(entry.account);
    if (account?.kind === 'platform' && isOneOf(FEE_ACCOUNTS, account.name) && entry.currency === currency) fee += BigInt(entry.amount);
  }
  const net = MERCHANT_BUCKETS.reduce((sum, bucket) => sum + moves[bucket], 0n);
  const shown = {
    pending: exact(moves.pending, 'pending', record.seq),
    available: exact(moves.available, 'available', record.seq),
    dispute_hold: exact(moves.dispute_hold, 'dispute_hold', record.seq),
  };
  const amount = exact(net + fee, 'amount', record.seq);
  const type = balanceTransactionType(record.causeType);
  const when = availableOn(record, shown);
  const exchange = exchangeOf(type, record, currency);
  return {
    id: balanceTransactionId(record.seq),
    seq: record.seq,
    type,
    amount,
    fee: exact(fee, 'fee', record.seq),
    net: exact(net, 'net', record.seq),
    currency,
    moves: shown,
    source: record.causeId,
    ...(record.paymentIntentId === undefined ? {} : { paymentIntentId: record.paymentIntentId }),
    ...(when === undefined ? {} : { availableOn: when }),
    ...(settlementId === undefined ? {} : { settlementId }),
    created: record.created,
    ...(exchange === undefined ? {} : { exchange }),
  };
}

/**
 * The presentment side of a payment or refund line whose payer paid in another currency: the
 * intent's amount (a payment) or the refund's (negative for a refund, positive for its reversal),
 * and the rate the payment's price locked at.
 */
function exchangeOf(type: BalanceTransactionType, record: JournalRecord, currency: string): BalanceTransactionExchange | undefined {
  const rate = record.payment?.rate;
  if (rate === undefined || record.payment === undefined || record.payment.currency === currency) return undefined;
  if (type === 'payment') return { amount: record.payment.amount, currency: record.payment.currency, rate };
  if ((type === 'refund' || type === 'refund_reversal') && record.refund !== undefined) {
    return { amount: type === 'refund' ? -record.refund.amount : record.refund.amount, currency: record.refund.currency, rate };
  }
  return undefined;
}

/** What a list of lines may be narrowed to; the filters combine. */
export interface BalanceTransactionFilter {
  readonly type?: BalanceTransactionType;
  readonly paymentIntentId?: string;
  /** Lines whose movement of available money this settlement covers (its own payout line included). */
  readonly settlementId?: string;
  readonly currency?: string;
  /** Inclusive bounds on `created`. */
  readonly createdGte?: Date;
  readonly createdLte?: Date;
  /** Inclusive bounds on `availableOn`; a line without one matches neither. */
  readonly availableOnGte?: Date;
  readonly availableOnLte?: Date;
}

/** Whether `line` passes `filter`: the rule every storage adapter's list keeps. */
export function matchesBalanceTransactionFilter(line: BalanceTransaction, filter: BalanceTransactionFilter): boolean {
  const within = (value: Date | undefined, gte: Date | undefined, lte: Date | undefined): boolean =>
    (gte === undefined && lte === undefined) ||
    (value !== undefined && (gte === undefined || value.getTime() >= gte.getTime()) && (lte === undefined || value.getTime() <= lte.getTime()));
  return (
    (filter.type === undefined || line.type === filter.type) &&
    (filter.paymentIntentId === undefined || line.paymentIntentId === filter.paymentIntentId) &&
    (filter.settlementId === undefined || line.settlementId === filter.settlementId) &&
    (filter.currency === undefined || line.currency === filter.currency) &&
    within(line.created, filter.createdGte, filter.createdLte) &&
    within(line.availableOn, filter.availableOnGte, filter.availableOnLte)
  );
}
