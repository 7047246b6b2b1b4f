import type { AccountScope, Mode, Money, Page, PageRequest } from '../../common';
import { token } from '../../common';
import type { PaymentIntent, PaymentIntentStatus } from '../domain/payment-intent.entity';
import type { MoneyStatus } from '../domain/payment-search';

export interface PaymentIntentFilter {
  readonly status?: PaymentIntentStatus;
  readonly merchantOrderId?: string;
  /** Created at or after this instant. */
  readonly createdGte?: Date;
  /** Created at or before this instant. */
  readonly createdLte?: Date;
  /**
   * A search box's answer: the intent whose id is exactly this, and the intents whose
   * merchant_order_id starts with it, whatever the case (`merchantOrderSearchKey` of both).
   */
  readonly idOrOrderIdPrefix?: string;
  /** Only intents of one of these amounts (an amount typed once, as it reads in each currency). Empty: none. */
  readonly amounts?: readonly Money[];
  readonly currency?: string;
  /** Only intents that have this money status (`moneyStatuses`: their refunds and their disputes). */
  readonly moneyStatus?: MoneyStatus;
}

export interface PaymentIntentRepository {
  /**
   * Stores a new intent. Throws CoreError `merchant_order_id_taken` (conflict) when the merchant
   * already used its merchant_order_id in this mode.
   */
  insert(intent: PaymentIntent): Promise<void>;
  /** The intent of this merchant and mode, or undefined (another merchant's id included). */
  findById(scope: AccountScope, id: string): Promise<PaymentIntent | undefined>;
  /**
   * Like `findById`, and locks the intent's row until the unit of work ends, so concurrent
   * changes of one intent run one after another and each sees the previous one committed.
   * Call it inside a unit of work.
   */
  findByIdForUpdate(scope: AccountScope, id: string): Promise<PaymentIntent | undefined>;
  /**
   * Stores `intent` over the version it was read at and returns it with the version raised.
   * Throws ConcurrentUpdateError (`concurrent_update`) when someone else changed it since.
   */
  update(intent: PaymentIntent): Promise<PaymentIntent>;
  /**
   * Raises the version of the intent read at `intent.version`, changing nothing else, and returns
   * it with the new version; ConcurrentUpdateError when someone else changed it since. For a unit
   * of work that changes what belongs to the intent (a new attempt, a dispute) but not the intent:
   * a row lock taken on one node of a multi-writer cluster holds nobody up on another, but two
   * transactions that both write the intent's row cannot both commit, so the rule the lock
   * protects holds there too.
   */
  bumpVersion(intent: PaymentIntent): Promise<PaymentIntent>;
  /**
   * Newest first. Throws CoreError `invalid_parameter` on `starting_after` when the cursor names
   * no intent of this scope.
   */
  list(scope: AccountScope, filter: PaymentIntentFilter, page: PageRequest): Promise<Page<PaymentIntent>>;
  /** Intents of one mode, any merchant, whose expiry timer has run out at `now`, oldest deadline first. */
  findDueForExpiry(mode: Mode, now: Date, limit: number): Promise<PaymentIntent[]>;
  /**
   * Succeeded intents of one mode, any merchant, waiting for the channel to report settlement and
   * due to be asked at `now` (never asked, or their next check has come), the longest waiting first.
   */
  findAwaitingChannelSettlement(mode: Mode, now: Date, limit: number): Promise<PaymentIntent[]>;
  /**
   * When to ask the channel again about a succeeded intent it has not settled yet. Touches nothing
   * else of the intent (no version, no `updated`), so it never overwrites a change made meanwhile.
   */
  deferSettlementCheck(id: string, at: Date): Promise<void>;
  /** Channel-settled intents of one mode, any merchant, whose release timer has run out and not fired yet. */
  findDueForRelease(mode: Mode, now: Date, limit: number): Promise<PaymentIntent[]>;
}
export const PaymentIntentRepository = token<PaymentIntentRepository>('PaymentIntentRepository');
