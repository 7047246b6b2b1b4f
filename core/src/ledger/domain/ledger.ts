import type { AccountScope, Mode } from '../../common';
import { CoreError, isOneOf } from '../../common';

/**
 * The double-entry ledger (docs/ledger.md). Every movement of money is one journal transaction
 * whose entries sum to zero per currency. Sign convention ("credit positive"): a positive balance
 * is what the platform owes (a merchant's buckets, fee revenue); a negative one is what is owed to
 * the platform or already in its hands (channel clearing).
 */

/** A merchant's three balance buckets (schema Balance in docs/openapi.json). */
export type MerchantBucket = 'pending' | 'available' | 'dispute_hold';
export const MERCHANT_BUCKETS: readonly MerchantBucket[] = ['pending', 'available', 'dispute_hold'];

/**
 * The platform's own accounts, per mode and currency:
 * - `channel_clearing`: money channels collected for us (negative) less what left the platform
 *   to merchants' banks;
 * - `fee_revenue`: our fees, and the fees of lost disputes;
 * - `refunded_fees`: the fee share of refunds, which the channel gave back to payers with the
 *   rest of the refunded amount while the merchant was debited only its share of the net (the
 *   platform's cost: it goes negative);
 * - `dispute_losses`: what lost disputes cost the platform: the channel took back the disputed
 *   amount (a credit of channel_clearing), the merchant gave back what it still had of the
 *   payment (credited here), and the rest (the fee share, what refunds had given back) is ours to
 *   bear;
 * - `payouts_in_transit`: settlements created and not yet paid or failed;
 * - `payer_refunds_due`: what payers paid for an intent another attempt had already paid, owed
 *   back to them (booked in the currency they paid).
 */
export type PlatformAccountName = 'channel_clearing' | 'fee_revenue' | 'refunded_fees' | 'dispute_losses' | 'payouts_in_transit' | 'payer_refunds_due';
export const PLATFORM_ACCOUNT_NAMES: readonly PlatformAccountName[] = [
  'channel_clearing',
  'fee_revenue',
  'refunded_fees',
  'dispute_losses',
  'payouts_in_transit',
  'payer_refunds_due',
];

export type LedgerAccount =
  | { readonly kind: 'merchant'; readonly merchantId: string; readonly mode: Mode; readonly bucket: MerchantBucket; readonly currency: string }
  | { readonly kind: 'platform'; readonly mode: Mode; readonly name: PlatformAccountName; readonly currency: string };

/** What a journal transaction books: its cause names the one thing that may post it, once. */
export type LedgerCauseType =
  | 'payment'
  | 'release'
  | 'dispute_opened'
  | 'dispute_hold'
  | 'dispute_won'
  | 'dispute_lost'
  | 'dispute_claim'
  | 'chargeback'
  | 'settlement_created'
  | 'settlement_paid'
  | 'settlement_failed'
  | 'duplicate_payment'
  | 'refund'
  | 'refund_failed';

export interface LedgerEntry {
  /** The account's code (`accountCode`). */
  readonly account: string;
  /** Signed minor units: positive credits, negative debits. */
  readonly amount: number;
  readonly currency: string;
}

/** What a channel moved, by the kind of line its statement shows for it. */
export type ChannelMovementKind = 'payment' | 'refund' | 'chargeback';
export const CHANNEL_MOVEMENT_KINDS: readonly ChannelMovementKind[] = ['payment', 'refund', 'chargeback'];

/**
 * The channel's side of a posting that mirrors the channel (docs/reconciliation.md): what the
 * channel moved, as its statement will show it, so the reconciliation can match the two. Amounts
 * are the channel's (what the payer paid, in that currency), not the settlement currency's.
 */
export interface ChannelMovement {
  /** The channel's name: `simulator`, `rest`, … */
  readonly channel: string;
  readonly kind: ChannelMovementKind;
  /**
   * The reference the service gave the channel (the attempt id for a payment, the refund id for a
   * refund) or, for a chargeback, the channel's own dispute id.
   */
  readonly reference: string;
  /**
   * Signed minor units of `currency`: + collected for a payment, + paid out for a refund or a
   * chargeback; a reversal (a failed refund) carries the negative.
   */
  readonly amount: number;
  readonly currency: string;
}

/** The key the reconciliation matches on, within one channel and mode. */
export interface ChannelMovementKey {
  readonly kind: ChannelMovementKind;
  readonly reference: string;
}

/**
 * What the channel movements of one key add up to in one currency (`Ledger.channelMovements`):
 * exact, since a sum may pass 2^53 − 1 where each movement does not.
 */
export interface ChannelMovementTotal extends ChannelMovementKey {
  readonly channel: string;
  readonly currency: string;
  readonly amount: bigint;
  /** How many movements were summed. */
  readonly movements: number;
  /** The merchant of the transactions that recorded them. */
  readonly merchantId: string;
  /** When the first and the last of them were posted. */
  readonly firstCreated: Date;
  readonly lastCreated: Date;
}

export interface LedgerTransaction {
  /** Unique: `<cause type>:<object id>`. Posting a cause twice posts nothing the second time. */
  readonly cause: string;
  readonly causeType: LedgerCauseType;
  /** The object that caused it: an intent, dispute or settlement id. */
  readonly causeId: string;
  readonly merchantId: string;
  readonly mode: Mode;
  /**
   * The payment whose money it moves, when it moves one payment's money (everything but
   * settlements and duplicate payments): the payment's share of each bucket is the sum of its
   * transactions' merchant entries (`Ledger.paymentShares`).
   */
  readonly paymentIntentId?: string;
  readonly entries: readonly LedgerEntry[];
  readonly created: Date;
  /**
   * For a posting that mirrors the channel, what the channel moved: kept with the transaction (even
   * one whose legs all rounded to zero: the channel moved money all the same) for the
   * reconciliation with the channel's statement.
   */
  readonly channelMovement?: ChannelMovement;
}

/**
 * An entry of a merchant's `available` account that no settlement covers yet
 * (`Ledger.uncoveredEntries`; docs/settlements.md, "What a settlement covers"), with what its
 * transaction says of it: the entries a settlement covers add up to its amount.
 */
export interface UncoveredEntry {
  /** The entry's own identity in the journal (opaque): what `Ledger.coverEntries` takes back. */
  readonly id: string;
  /** Signed minor units, as posted. */
  readonly amount: number;
  readonly causeType: LedgerCauseType;
  readonly causeId: string;
  /** The payment whose money the transaction moves, when it moves one payment's. */
  readonly paymentIntentId?: string;
}

/** What the entries a settlement covers on its available account add up to, per cause type (`Ledger.coveredTotals`). */
export interface CoveredCauseTotal {
  readonly causeType: LedgerCauseType;
  /** How many entries (one per transaction: a transaction moves an account once). */
  readonly count: number;
  /** Their sum: what they moved on available. */
  readonly amount: bigint;
}

/** The entries one settlement covers, summed (its own `settlement_created` entry aside). */
export interface SettlementCoverage {
  readonly settlementId: string;
  readonly causes: readonly CoveredCauseTotal[];
  /**
   * The payments whose `release` entry it covers, as their `payment` transaction booked them: the
   * merchant's net and the platform's fee (exact sums, in the account's currency).
   */
  readonly released: { readonly count: number; readonly net: bigint; readonly fee: bigint };
}

/**
 * One row of the balance table: an account and what its entries sum to. A BigInt, because a
 * balance is a sum of many entries and may pass 2^53 − 1 (each entry stays within it): a number
 * would round it silently. Storage keeps it as a signed 64-bit integer.
 */
export interface LedgerBalance {
  readonly account: string;
  readonly currency: string;
  readonly balance: bigint;
}

/** The stable text code of an account: `m:<merchant>:<mode>:<bucket>:<CUR>` or `p:<mode>:<name>:<CUR>`. */
export function accountCode(account: LedgerAccount): string {
  return account.kind === 'merchant'
    ? `m:${account.merchantId}:${account.mode}:${account.bucket}:${account.currency}`
    : `p:${account.mode}:${account.name}:${account.currency}`;
}

export function merchantAccount(scope: AccountScope, bucket: MerchantBucket, currency: string): string {
  return accountCode({ kind: 'merchant', merchantId: scope.merchantId, mode: scope.mode, bucket, currency });
}

export function platformAccount(mode: Mode, name: PlatformAccountName, currency: string): string {
  return accountCode({ kind: 'platform', mode, name, currency });
}

/** Reads an account code back; undefined for anything that is not one. */
export function parseAccountCode(code: string): LedgerAccount | undefined {
  const parts = code.split(':');
  const isMode = (value: string | undefined): value is Mode => value === 'test' || value === 'live';
  if (parts[0] === 'm' && parts.length === 5) {
    const [, merchantId = '', mode, bucket, currency = ''] = parts;
    if (!isMode(mode) || !isOneOf(MERCHANT_BUCKETS, bucket)) return undefined;
    return { kind: 'merchant', merchantId, mode, bucket, currency };
  }
  if (parts[0] === 'p' && parts.length === 4) {
    const [, mode, name, currency = ''] = parts;
    if (!isMode(mode) || !isOneOf(PLATFORM_ACCOUNT_NAMES, name)) return undefined;
    return { kind: 'platform', mode, name, currency };
  }
  return undefined;
}

/**
 * Builds a transaction and checks what every transaction must satisfy: exact non-zero integer
 * amounts, entries summing to zero per currency, an account currency equal to the entry's, and no
 * account of another merchant or mode. A break here is a bug, not input.
 *
 * Zero legs are dropped: a payment whose converted fee rounds to 0 books its net alone. When every
 * leg is zero (1 IDR converted to 0 THB) the transaction has no entries and books nothing
 * (`isEmptyTransaction`; `Ledger.post` writes nothing for it), while the change that caused it
 * still commits: a zero amount is a fact about the money, not a fault.
 */
export function ledgerTransaction(input: Omit<LedgerTransaction, 'cause'>): LedgerTransaction {
  const entries = input.entries.filter((entry) => entry.amount !== 0);
  const { channelMovement, ...rest } = input;
  // A movement of nothing is no movement, as a zero leg is no leg.
  const movement = channelMovement && channelMovement.amount !== 0 ? { channelMovement } : {};
  const tx: LedgerTransaction = { ...rest, ...movement, cause: `${input.causeType}:${input.causeId}`, entries };
  const problem = transactionProblem(tx);
  if (problem) throw new CoreError('ledger_unbalanced', 'internal', `Ledger transaction ${tx.cause} refused: ${problem}.`);
  return tx;
}

/** True when every leg of the transaction was zero: there is nothing to book (its channel movement, if any, is still kept). */
export function isEmptyTransaction(tx: LedgerTransaction): boolean {
  return tx.entries.length === 0;
}

/**
 * Why a transaction breaks an invariant, or undefined when it keeps them all. An empty one keeps
 * them (it books nothing); a single entry never sums to zero. Sums are BigInt: four entries of up
 * to 2^53 − 1 each can pass what a number holds exactly.
 */
export function transactionProblem(tx: LedgerTransaction): string | undefined {
  if (tx.entries.length === 1) return 'a single entry';
  const movement = tx.channelMovement;
  if (movement) {
    if (!Number.isSafeInteger(movement.amount)) return `channel movement amount ${movement.amount} is not an exact integer`;
    if (!isOneOf(CHANNEL_MOVEMENT_KINDS, movement.kind)) return `unknown channel movement kind ${String(movement.kind)}`;
    if (movement.channel === '' || movement.reference === '') return 'a channel movement without its channel or reference';
  }
  const sums = new Map<string, bigint>();
  for (const entry of tx.entries) {
    if (!Number.isSafeInteger(entry.amount) || entry.amount === 0) return `amount ${entry.amount} is not an exact non-zero integer`;
    const account = parseAccountCode(entry.account);
    if (!account) return `unknown account ${entry.account}`;
    if (account.currency !== entry.currency) return `entry in ${entry.currency} on a ${account.currency} account`;
    if (account.mode !== tx.mode) return `account ${entry.account} is of another mode`;
    if (account.kind === 'merchant' && account.merchantId !== tx.merchantId) return `account ${entry.account} belongs to another merchant`;
    sums.set(entry.currency, (sums.get(entry.currency) ?? 0n) + BigInt(entry.amount));
  }
  for (const [currency, sum] of sums) if (sum !== 0n) return `entries in ${currency} sum to ${sum}`;
  return undefined;
}

/**
 * An amount of a balance bucket: exact, so a BigInt (a balance may pass 2^53 − 1). The API writes
 * it as a JSON integer of its exact digits (the contract types amounts as int64).
 */
export interface BalanceAmount {
  readonly amount: bigint;
  readonly currency: string;
}

/** A merchant's balance: one amount per currency in each bucket. */
export type MerchantBalance = Readonly<Record<MerchantBucket, BalanceAmount[]>>;

/** Groups a merchant's balance rows into the three buckets, currencies in order. */
export function merchantBalance(rows: readonly LedgerBalance[]): MerchantBalance {
  const buckets: Record<MerchantBucket, BalanceAmount[]> = { available: [], pending: [], dispute_hold: [] };
  const currencies = new Set<string>();
  const amounts = new Map<string, bigint>();
  for (const row of rows) {
    const account = parseAccountCode(row.account);
    if (account?.kind !== 'merchant') continue;
    currencies.add(account.currency);
    amounts.set(`${account.bucket}:${account.currency}`, row.balance);
  }
  // Every bucket lists every currency the merchant ever held, so a reader finds a zero, not a gap.
  for (const currency of [...currencies].sort()) {
    for (const bucket of MERCHANT_BUCKETS) buckets[bucket].push({ amount: amounts.get(`${bucket}:${currency}`) ?? 0n, currency });
  }
  return buckets;
}
