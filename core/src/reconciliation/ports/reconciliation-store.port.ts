import type { Mode } from '../../common';
import { token } from '../../common';
import type { ChannelStatement } from '../../payments';
import type { BreakReason, KeyTotal, MatchKey, ReconciliationItem, ReconciliationStatus } from '../domain/reconciliation';

/** How far the reconciliation of one channel and mode has got. */
export interface ReconciliationProgress {
  readonly channel: string;
  readonly mode: Mode;
  /** Where the next read of the channel's statement starts; absent before the first. */
  readonly cursor?: string;
  /** The channel's clock when it answered the last read. */
  readonly statementAsOf?: Date;
  /** Every key with a movement posted or a line fetched before this instant (our clock) was compared. */
  readonly checkedUntil?: Date;
}

/** Which keys' stored statement lines `lineTotals` sums: with neither field, every key. */
export interface LineTotalsQuery {
  readonly channel: string;
  readonly mode: Mode;
  /** Keys with a line fetched at or after this instant. */
  readonly fetchedSince?: Date;
  /** And these keys. */
  readonly keys?: readonly MatchKey[];
}

/** Which items `list` answers, newest change first. */
export interface ReconciliationItemFilter {
  /** Default: every status. */
  readonly status?: ReconciliationStatus;
  readonly channel?: string;
  readonly mode?: Mode;
  readonly limit: number;
}

/** How many breaks are open, per channel, mode and reason (the metric's gauge). */
export interface OpenBreakCount {
  readonly channel: string;
  readonly mode: Mode;
  readonly reason: BreakReason;
  readonly count: number;
}

/**
 * What the reconciliation keeps: the channels' statement lines as they were read (a copy of what
 * each channel said), where each read stopped, and the items (mismatches waiting, breaks open or
 * cleared).
 */
export interface ReconciliationStore {
  /** The progress of one channel and mode; undefined before its first run. */
  progress(channel: string, mode: Mode): Promise<ReconciliationProgress | undefined>;
  /**
   * Keeps a page of the statement and where the next read starts, together. A line is unique on
   * its kind and channel id: one read again is kept as it was first read. Returns how many lines
   * were new.
   */
  saveStatementPage(channel: string, mode: Mode, page: ChannelStatement, fetchedAt: Date): Promise<number>;
  /** The stored lines of the keys the query names, summed per key and currency. */
  lineTotals(query: LineTotalsQuery): Promise<KeyTotal[]>;
  /** The items of one channel and mode that are not cleared (waiting and open). */
  unsettled(channel: string, mode: Mode): Promise<ReconciliationItem[]>;
  /**
   * Stores a run's decisions together: items saved (inserted or replaced by id), waiting items
   * removed, and that every key active before `checkedUntil` was compared. At most one item per
   * key is not cleared: a second is refused (a concurrent run), and the whole write with it.
   */
  record(
    channel: string,
    mode: Mode,
    changes: { readonly save: readonly ReconciliationItem[]; readonly remove: readonly string[] },
    checkedUntil: Date,
  ): Promise<void>;
  /** Items across channels, the most recently changed first. */
  list(filter: ReconciliationItemFilter): Promise<ReconciliationItem[]>;
  /** Open breaks per channel, mode and reason. */
  countOpen(): Promise<OpenBreakCount[]>;
}
export const ReconciliationStore = token<ReconciliationStore>('ReconciliationStore');

/**
 * What operators must hear about as it happens (a log line, a counter), beside the items the store
 * keeps. Called once the run that decided it has committed; never throws.
 */
export interface ReconciliationAlerts {
  breakOpened(item: ReconciliationItem): void;
  breakCleared(item: ReconciliationItem): void;
}
export const ReconciliationAlerts = token<ReconciliationAlerts>('ReconciliationAlerts');
