import type { Mode } from '../../common';
import { CoreError, invalidParameter, publicHttpsUrlProblem } from '../../common';
import { isEventType } from './event-types';

export type WebhookEndpointStatus = 'enabled' | 'disabled';
export const WEBHOOK_ENDPOINT_STATUSES: readonly WebhookEndpointStatus[] = ['enabled', 'disabled'];

/**
 * Why an endpoint is disabled: `gone` it answered 410 Gone, `failing` it failed for five days
 * without a success (both by the relay), `manual` a person disabled it.
 */
export type WebhookEndpointDisabledReason = 'gone' | 'failing' | 'manual';
export const WEBHOOK_ENDPOINT_DISABLED_REASONS: readonly WebhookEndpointDisabledReason[] = ['gone', 'failing', 'manual'];

export const WEBHOOK_ENDPOINT_LIMITS = { urlLength: 2048, descriptionLength: 500, enabledEvents: 64 } as const;

/** Bytes of an endpoint secret: shown once as 64 hex characters; the v1 HMAC key is these bytes. */
export const WEBHOOK_SECRET_BYTES = 32;

/**
 * Where a merchant receives the events of one mode. The signing secret is kept only sealed by
 * the SecretBox (the relay must sign with it) and is shown in plaintext once, by the create call.
 * A deleted endpoint stays as a tombstone so earlier deliveries keep the address they went to.
 */
export interface WebhookEndpoint {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly url: string;
  /** Event types delivered; empty: every type. */
  readonly enabledEvents: readonly string[];
  readonly description?: string;
  /** The version every delivery is rendered at. */
  readonly apiVersion: string;
  readonly status: WebhookEndpointStatus;
  /** Why it is disabled; absent while enabled (and on endpoints disabled before reasons were kept). */
  readonly disabledReason?: WebhookEndpointDisabledReason;
  /** The signing secret, sealed by the SecretBox. */
  readonly secretSealed: string;
  /** The version of the secret (`v1_kid` in the signature header). */
  readonly secretVersion: number;
  readonly created: Date;
  readonly updated: Date;
  readonly deletedAt?: Date;
}

/** Throws 400 `invalid_url` (param `url`) unless `value` is an absolute https URL on a public host name. */
export function validateWebhookUrl(value: string): string {
  const problem = publicHttpsUrlProblem(value, WEBHOOK_ENDPOINT_LIMITS.urlLength);
  if (problem !== undefined) throw new CoreError('invalid_url', 'validation', `url ${problem}.`, { param: 'url' });
  return value;
}

/**
 * The event types an endpoint subscribes to, each once, in the order given. Throws 400
 * `invalid_parameter` naming `enabled_events` for a type the service does not deliver.
 */
export function validateEnabledEvents(values: readonly string[]): string[] {
  if (values.length > WEBHOOK_ENDPOINT_LIMITS.enabledEvents) {
    throw invalidParameter('enabled_events', `enabled_events takes at most ${WEBHOOK_ENDPOINT_LIMITS.enabledEvents} entries.`);
  }
  for (const value of values) {
    if (!isEventType(value)) {
      throw invalidParameter('enabled_events', 'enabled_events may list only event types the service delivers, such as payment_intent.succeeded.');
    }
  }
  return [...new Set(values)];
}

/** Throws 400 naming `description` when it is over the limit; an empty one means none. */
export function validateWebhookDescription(value: string): string | undefined {
  if (value.length > WEBHOOK_ENDPOINT_LIMITS.descriptionLength) {
    throw invalidParameter('description', `description must be at most ${WEBHOOK_ENDPOINT_LIMITS.descriptionLength} characters.`);
  }
  return value === '' ? undefined : value;
}
