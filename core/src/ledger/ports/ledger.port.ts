import type { AccountScope, Mode } from '../../common';
import { token } from '../../common';
import type {
  ChannelMovementKey,
  ChannelMovementTotal,
  LedgerBalance,
  LedgerTransaction,
  MerchantBucket,
  SettlementCoverage,
  UncoveredEntry,
} from '../domain/ledger';

/** A journal transaction whose entries do not sum to zero in one currency. */
export interface UnbalancedTransaction {
  readonly cause: string;
  readonly currency: string;
  readonly sum: bigint;
}

/** An entry on a merchant account of another merchant or mode than its transaction's. */
export interface ForeignEntry {
  readonly cause: string;
  readonly account: string;
}

/** Which keys' channel movements `Ledger.channelMovements` sums; with neither field, every key. */
export interface ChannelMovementQuery {
  readonly mode: Mode;
  readonly channel: string;
  /** Keys with a movement posted at or after this instant. */
  readonly activeSince?: Date;
  /** And these keys, however old their movements. */
  readonly keys?: readonly ChannelMovementKey[];
}

/**
 * The journal and its balance table. Postings are append-only; a balance row changes in the same
 * transaction as the entries it sums. The invariants are checked by the `VerifyLedger` use case
 * over what the read methods below answer.
 */
export interface Ledger {
  /**
   * Appends `tx` and adds its entries to the balance table, unless a transaction with its cause
   * was posted before: then nothing is written and the answer is false. A transaction with no
   * entries (every leg was zero, `isEmptyTransaction`) writes nothing either and answers false:
   * there is nothing to book, and the change that caused it commits all the same; its channel
   * movement (`tx.channelMovement`) is kept even then, once per cause, since the channel moved the
   * money whatever it converts to. Call it inside the unit of work of the change that causes it,
   * so the two commit or roll back together.
   */
  post(tx: LedgerTransaction): Promise<boolean>;
  /**
   * The channel movements kept with postings (`LedgerTransaction.channelMovement`) of one channel
   * and mode, summed per key and currency over all their movements, for the keys the query names
   * (`ChannelMovementQuery`); in no particular order. A key whose movements cancel out (a refund
   * and its reversal) answers a total of 0.
   */
  channelMovements(query: ChannelMovementQuery): Promise<ChannelMovementTotal[]>;
  /** Whether the transaction of `cause` was posted. */
  hasPosted(cause: string): Promise<boolean>;
  /**
   * What one payment's transactions (those that name it, `paymentIntentId`) left in each of the
   * merchant's buckets: where that payment's money sits now. Zeros for a payment never booked.
   */
  paymentShares(scope: AccountScope, paymentIntentId: string): Promise<Record<MerchantBucket, bigint>>;
  /** The balance rows of a merchant's accounts in one mode (from the balance table). */
  balances(scope: AccountScope): Promise<LedgerBalance[]>;
  /**
   * The balance of one account with its row locked until the unit of work ends (0 when it has
   * none), so a check such as "available covers the settlement" still holds when the posting
   * that relies on it commits. Balances are BigInt throughout: a sum of entries may pass 2^53 − 1.
   */
  balanceForUpdate(account: string): Promise<bigint>;
  /**
   * The entries of a merchant's `available` account (`account`) that no settlement covers yet, in
   * posting order: what they sum to is the account's balance less what settlements already cover.
   * Read it after `balanceForUpdate(account)` in the same unit of work, so no posting to the
   * account commits between the two.
   */
  uncoveredEntries(account: string): Promise<UncoveredEntry[]>;
  /**
   * Marks the entries `entryIds` of `account` as covered by `settlementId`, each only where no
   * settlement covers it yet; answers how many it marked (fewer than asked: another settlement
   * covered some meanwhile).
   */
  coverEntries(account: string, settlementId: string, entryIds: readonly string[]): Promise<number>;
  /** Marks the entries of `account` posted by the transaction of `cause` as covered by `settlementId` (a settlement's own entry), where none covers them yet; answers how many. */
  coverCause(account: string, settlementId: string, cause: string): Promise<number>;
  /** What the entries of `account` that each of `settlementIds` covers add up to (their own `settlement_created` entries aside); one answer per id asked, in that order. */
  coveredTotals(account: string, settlementIds: readonly string[]): Promise<SettlementCoverage[]>;
  /** What the transactions naming these payments (`paymentIntentId`) left on `account`, summed: exact. */
  paymentsTotal(account: string, paymentIntentIds: readonly string[]): Promise<bigint>;
  /** Every row of the balance table. */
  balanceTable(): Promise<LedgerBalance[]>;
  /** What the journal's entries sum to per account: the balance table as rebuilt from the journal. */
  journalTotals(): Promise<LedgerBalance[]>;
  /**
   * The balance row of `account` and what its entries sum to, read at one moment: every posting
   * to the account that has begun has committed (its balance row is read locked first), and none
   * starts until both are read. `balanceTable()` and `journalTotals()` are two reads, between which
   * a running service posts: a difference they show is real only if this shows it too.
   */
  settledBalance(account: string): Promise<{ readonly table: bigint; readonly journal: bigint }>;
  /** Transactions whose entries do not sum to zero per currency, at most `limit`. */
  unbalancedTransactions(limit: number): Promise<UnbalancedTransaction[]>;
  /** Entries on a merchant account of another merchant or mode than their transaction's, at most `limit`. */
  foreignEntries(limit: number): Promise<ForeignEntry[]>;
  /** Replaces the balance table with `journalTotals()` (an operator's repair). Returns the rows written. */
  rebuildBalances(): Promise<number>;
}
export const Ledger = token<Ledger>('Ledger');
