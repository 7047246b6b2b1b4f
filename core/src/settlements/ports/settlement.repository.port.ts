import type { RequestKey } from '../../merchants';
import type { PaymentIntent } from '../../payments';
import type { AccountScope, Mode, Page, PageRequest } from '../../common';
import { token } from '../../common';
import type { Settlement } from '../domain/settlement.entity';

export interface SettlementRepository {
  /**
   * Stores a new settlement. A second `scheduled` one for the same merchant, mode, period end and
   * part, or a second one of the same request key, is ConcurrentUpdateError (`settlement_conflict`):
   * the unit of work runs again and finds the other.
   */
  insert(settlement: Settlement): Promise<void>;
  findById(scope: AccountScope, id: string): Promise<Settlement | undefined>;
  /** Like `findById`, and locks the row until the unit of work ends. */
  findByIdForUpdate(scope: AccountScope, id: string): Promise<Settlement | undefined>;
  /** Writes the settlement's changes; its `requestKey` is written by `insert` and `forgetRequestKey` only. */
  update(settlement: Settlement): Promise<void>;
  /** Newest first; `starting_after` naming no settlement of this scope is CoreError `invalid_parameter`. */
  list(scope: AccountScope, page: PageRequest): Promise<Page<Settlement>>;
  /** The scheduled batch of this merchant and mode that ends at `periodEnd` (its first part), if one was made. */
  findScheduled(scope: AccountScope, periodEnd: Date): Promise<Settlement | undefined>;
  /** The manual settlement this merchant and mode made for the request with this Idempotency-Key of this caller. */
  findByRequestKey(scope: AccountScope, requestKey: RequestKey): Promise<Settlement | undefined>;
  /**
   * Clears the request key of a settlement whose key is no longer remembered, so the key can name
   * a new settlement (a caller's key names one settlement of a merchant and mode at a time).
   */
  forgetRequestKey(scope: AccountScope, id: string): Promise<void>;
  /** Settlements of any merchant still `pending` or `processing`, oldest first: the payout job's work. */
  findUnfinished(mode: Mode, limit: number): Promise<Settlement[]>;
  /**
   * The payments whose funds are available and not yet settled: channel-settled intents released
   * at or before `releasedBefore`, covered by no settlement, and with no open or lost dispute.
   */
  findSettleable(scope: AccountScope, releasedBefore: Date): Promise<PaymentIntent[]>;
  /**
   * The payments a settlement would cover once their release timer fires: channel-settled intents
   * not released yet whose release is due (`availableAt`) before `dueBefore`, covered by no
   * settlement, with no open or lost dispute; by due time. For showing the next settlement.
   */
  findReleasing(scope: AccountScope, dueBefore: Date): Promise<PaymentIntent[]>;
  /**
   * Marks the intents as covered by `settlementId`, each only if no settlement covers it yet;
   * returns how many it marked (fewer than asked means another settlement took some).
   */
  assignPayments(scope: AccountScope, settlementId: string, intentIds: readonly string[]): Promise<number>;
  /** Frees the payments of a failed settlement, so a later one can cover them again. */
  releasePayments(scope: AccountScope, settlementId: string): Promise<number>;
}
export const SettlementRepository = token<SettlementRepository>('SettlementRepository');
