import type { AccountScope, Mode, Page, PageRequest } from '../../common';
import { token } from '../../common';
import type { Dispute, DisputeStatus } from '../domain/dispute.entity';

export interface DisputeFilter {
  readonly status?: DisputeStatus;
  /** Only the disputes of this payment intent. */
  readonly paymentIntentId?: string;
}

export interface DisputeRepository {
  /**
   * Stores a new dispute. Its (channel, mode, channelDisputeId) is unique: a replayed notice finds
   * the stored one, and a second insert of it throws CoreError `dispute_exists` (conflict). The
   * same channel id in the other mode is another dispute (a channel numbers test and live apart).
   */
  insert(dispute: Dispute): Promise<void>;
  /** The dispute of this merchant and mode, or undefined (another merchant's id included). */
  findById(scope: AccountScope, id: string): Promise<Dispute | undefined>;
  /** Like `findById`, and locks the row until the unit of work ends. */
  findByIdForUpdate(scope: AccountScope, id: string): Promise<Dispute | undefined>;
  /** The dispute a channel knows by its own id in `mode`, of any merchant (channel notices carry no merchant). */
  findByChannelDisputeId(channel: string, mode: Mode, channelDisputeId: string): Promise<Dispute | undefined>;
  /** The most recently opened dispute of an intent, ruled or not. */
  findLatestForIntent(scope: AccountScope, paymentIntentId: string): Promise<Dispute | undefined>;
  update(dispute: Dispute): Promise<void>;
  /**
   * Disputes of any merchant with no ruling yet, last changed at or before `updatedBefore`, whose
   * next check (`setNextCheck`) is unset or has come by `now`; least recently changed first. What
   * the dispute reconciler asks the channels about.
   */
  findDueForCheck(query: { readonly mode: Mode; readonly updatedBefore: Date; readonly now: Date; readonly limit: number }): Promise<Dispute[]>;
  /**
   * When the reconciler may ask about the dispute again. Touches nothing else of it, so it never
   * overwrites a change recorded meanwhile, and `update` leaves it alone.
   */
  setNextCheck(id: string, nextCheckAt: Date): Promise<void>;
  /** Newest first; `starting_after` naming no dispute of this scope is CoreError `invalid_parameter`. */
  list(scope: AccountScope, filter: DisputeFilter, page: PageRequest): Promise<Page<Dispute>>;
  /** The statuses of the disputes of each of these payment intents of the scope (an intent without one is absent). */
  statusesByPayment(scope: AccountScope, paymentIntentIds: readonly string[]): Promise<ReadonlyMap<string, readonly DisputeStatus[]>>;
}
export const DisputeRepository = token<DisputeRepository>('DisputeRepository');
