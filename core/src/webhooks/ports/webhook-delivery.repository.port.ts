import type { Mode, Page, PageRequest } from '../../common';
import { token } from '../../common';
import type { DomainEvent } from '../domain/event.entity';
import type { WebhookDelivery, WebhookDeliveryAttempt } from '../domain/webhook-delivery.entity';

/** A delivery a relay pass holds, with the event it carries. */
export interface ClaimedDelivery {
  readonly delivery: WebhookDelivery;
  readonly event: DomainEvent;
}

/** One attempt to store: the delivery's new state, the lease it was claimed under, the attempt to log (none when nothing was sent). */
export interface DeliveryAttemptRecord {
  readonly next: WebhookDelivery;
  readonly heldUntil: Date;
  readonly attempt: WebhookDeliveryAttempt | undefined;
}

export interface WebhookDeliveryListRequest extends PageRequest {
  readonly endpointId?: string;
}

/** Whose deliveries a list or a lookup sees: the merchant's, of one mode, or of both when `mode` is absent. */
export interface WebhookDeliveryListScope {
  readonly merchantId: string;
  readonly mode?: Mode;
}

/** Per-endpoint counts for the dashboard's health fields. */
export interface WebhookEndpointHealth {
  readonly attempts: number;
  readonly successes: number;
  readonly lastError?: string;
  readonly lastErrorAt?: Date;
  /** The first failed attempt after the last successful one; absent when the last attempt succeeded or none was made. */
  readonly failingSince?: Date;
}

export interface WebhookDeliveryRepository {
  /** Stores a new delivery; call it inside the unit of work that appends its event. */
  insert(delivery: WebhookDelivery): Promise<void>;
  /**
   * Leases up to `limit` due deliveries of one mode (pending, `nextRetryAt` ≤ now, no live
   * lease, not in `excluding`) until `leaseUntil`, oldest due first, and returns them with their
   * events. Concurrent callers never get the same delivery while its lease lives (SQL: `FOR UPDATE
   * SKIP LOCKED`, and a lease is only written where none runs, which also holds across the nodes
   * of a multi-writer cluster). A claim that keeps meeting other passes' leases claims nothing.
   */
  claimDue(mode: Mode, now: Date, leaseUntil: Date, limit: number, excluding?: ReadonlySet<string>): Promise<ClaimedDelivery[]>;
  /**
   * Logs the attempt (none when nothing was sent) and stores the delivery's new state (lease
   * cleared), but only while the caller's lease (`heldUntil`) is still the delivery's; false (and
   * nothing stored) otherwise.
   */
  recordAttempt(next: WebhookDelivery, heldUntil: Date, attempt: WebhookDeliveryAttempt | undefined): Promise<boolean>;
  /**
   * `recordAttempt` for several deliveries (distinct ids) at once, in one transaction: one answer
   * per record, in order (false, and nothing stored for it, where that lease is no longer the
   * delivery's). All or nothing: when it throws, none of them was stored.
   */
  recordAttempts(records: readonly DeliveryAttemptRecord[]): Promise<boolean[]>;
  /** The delivery's attempts, oldest first. */
  listAttempts(deliveryId: string): Promise<WebhookDeliveryAttempt[]>;
  /** The scope's delivery (of either mode when the scope has none); undefined for another merchant's or mode's. */
  findById(scope: WebhookDeliveryListScope, id: string): Promise<WebhookDelivery | undefined>;
  /**
   * Newest first (of both modes together when the scope has none). Throws CoreError
   * `invalid_parameter` on `starting_after` when the cursor names no delivery of this scope.
   */
  list(scope: WebhookDeliveryListScope, page: WebhookDeliveryListRequest): Promise<Page<WebhookDelivery>>;
  /**
   * Stores a resend's re-armed state (status, schedule count, next retry, updated time) of the
   * scope's delivery; false when there is none.
   */
  rearm(next: WebhookDelivery): Promise<boolean>;
  /** Attempt counts and the last failure of the endpoint's deliveries. */
  endpointHealth(endpointId: string): Promise<WebhookEndpointHealth>;
}
export const WebhookDeliveryRepository = token<WebhookDeliveryRepository>('WebhookDeliveryRepository');
