import { isDefaultEventType } from './event-types';
import type { Mode } from '../../common';
import type { DomainEvent } from './event.entity';
import type { WebhookEndpoint } from './webhook-endpoint.entity';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One event on its way to one endpoint. Created with the event (same transaction), claimed by a
 * relay pass under a lease (`lockedUntil`), re-armed by a resend. The url is where the last
 * attempt went (the endpoint's url at creation until then): each attempt goes to the endpoint's
 * url of that moment, so a merchant who fixes a broken url gets the pending retries there, and a
 * deleted endpoint's deliveries keep where they went.
 */
export interface WebhookDelivery {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly eventId: string;
  readonly endpointId: string;
  readonly url: string;
  readonly status: WebhookDeliveryStatus;
  /** Attempts made so far (resends included). */
  readonly attempts: number;
  /** Attempts since the schedule was last (re)started: what the retry schedule counts. */
  readonly scheduleAttempts: number;
  readonly responseStatus?: number;
  readonly lastError?: string;
  /** When the next attempt is due; absent once delivered or when the schedule ran off its end. */
  readonly nextRetryAt?: Date;
  /** A relay pass holds the delivery until then; a pass killed mid-delivery leaves it due again after. */
  readonly lockedUntil?: Date;
  readonly created: Date;
  readonly updated: Date;
}

/** One logged attempt. */
export interface WebhookDeliveryAttempt {
  readonly id: string;
  readonly deliveryId: string;
  readonly at: Date;
  readonly responseStatus?: number;
  readonly latencyMs: number;
  readonly error?: string;
  /** The API version the body was rendered at: the body sent is the event rendered at it again, never stored. */
  readonly apiVersion?: string;
  /** The start of the endpoint's answer (at most 1 KiB of text), shown to its merchant. */
  readonly responseBody?: string;
}

const MINUTE = 60_000;
/** The wait after attempt n (index n − 1); after the last, no further attempt. */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 480 * MINUTE, 1440 * MINUTE];
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_SCHEDULE_MS.length + 1;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a claimed delivery stays leased: longer than the timeout plus signing and bookkeeping. */
export const WEBHOOK_LEASE_MS = 60_000;

/** When the attempt after `scheduleAttempts` failed ones is due; undefined when the schedule is over. */
export function nextRetryAt(scheduleAttempts: number, now: Date): Date | undefined {
  const wait = WEBHOOK_RETRY_SCHEDULE_MS[scheduleAttempts - 1];
  return wait === undefined ? undefined : new Date(now.getTime() + wait);
}

/**
 * Whether an endpoint receives an event: enabled, not deleted, same mode, and subscribed (an
 * empty list means the default types: refund events go only to endpoints that name them).
 */
export function endpointReceives(endpoint: WebhookEndpoint, event: DomainEvent): boolean {
  return (
    endpoint.status === 'enabled' &&
    endpoint.deletedAt === undefined &&
    endpoint.merchantId === event.merchantId &&
    endpoint.mode === event.mode &&
    (endpoint.enabledEvents.length === 0 ? isDefaultEventType(event.type) : endpoint.enabledEvents.includes(event.type))
  );
}

export function isSuccessStatus(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

/**
 * A resend: one more attempt on the next relay pass. A delivery still on its schedule is just
 * made due now; a delivered or failed one gets exactly one attempt (failing it, it is failed again).
 */
export function armResend(delivery: WebhookDelivery, now: Date): WebhookDelivery {
  const scheduleAttempts = delivery.status === 'pending' ? delivery.scheduleAttempts : WEBHOOK_MAX_ATTEMPTS - 1;
  return { ...delivery, status: 'pending', scheduleAttempts, nextRetryAt: now, updated: now };
}

/** The delivery after an attempt answered `response` at `now`. */
export function afterAttempt(delivery: WebhookDelivery, response: { readonly status?: number; readonly error?: string }, now: Date): WebhookDelivery {
  const attempts = delivery.attempts + 1;
  const scheduleAttempts = delivery.scheduleAttempts + 1;
  const base = { ...delivery, attempts, scheduleAttempts, lockedUntil: undefined, updated: now };
  const { responseStatus: _s, lastError: _e, nextRetryAt: _n, ...rest } = base;
  void _s;
  void _e;
  void _n;
  const answered = response.status === undefined ? {} : { responseStatus: response.status };
  if (isSuccessStatus(response.status)) return { ...rest, ...answered, status: 'delivered' };
  const error = response.error ?? (response.status === undefined ? 'no response' : `HTTP ${response.status}`);
  const next = nextRetryAt(scheduleAttempts, now);
  return next === undefined
    ? { ...rest, ...answered, lastError: error, status: 'failed' }
    : { ...rest, ...answered, lastError: error, status: 'pending', nextRetryAt: next };
}
