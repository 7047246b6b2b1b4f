import {
  EVENT_TYPES,
  type EventType,
  type GetWebhookEndpointHealth,
  ID_PATTERNS,
  WEBHOOK_ENDPOINT_DISABLED_REASONS,
  WEBHOOK_ENDPOINT_STATUSES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointHealth,
} from '@payments/core';
import { compact, timestamp } from '../../http/presenting';
import { components, constant, dateTime, idMatching, list, mode, MONEY, object, ref } from '../../openapi/json-schema';

/** A webhook endpoint without its secret (the create answer adds `secret` itself). */
export function presentWebhookEndpoint(endpoint: WebhookEndpoint): Record<string, unknown> {
  return compact({
    id: endpoint.id,
    object: 'webhook_endpoint',
    mode: endpoint.mode,
    url: endpoint.url,
    enabled_events: [...endpoint.enabledEvents],
    description: endpoint.description,
    api_version: endpoint.apiVersion,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    created: timestamp(endpoint.created),
    updated: timestamp(endpoint.updated),
  });
}

/** An endpoint's delivery health: attempts made, the share answered 2xx, and the last failure. */
export function presentWebhookEndpointHealth(health: WebhookEndpointHealth): Record<string, unknown> {
  return compact({
    delivery_attempts: health.attempts,
    success_rate: health.attempts === 0 ? undefined : Math.round((health.successes / health.attempts) * 10_000) / 10_000,
    last_error: health.lastError,
    last_error_at: health.lastErrorAt && timestamp(health.lastErrorAt),
  });
}

/** The endpoint JSON with its delivery health (success rate over its attempts, last error). */
export async function presentEndpointWithHealth(health: GetWebhookEndpointHealth, endpoint: WebhookEndpoint): Promise<Record<string, unknown>> {
  return { ...presentWebhookEndpoint(endpoint), ...presentWebhookEndpointHealth(await health.execute(endpoint.id)) };
}

/** A delivery as the dashboard shows it: absent fields are omitted. */
export function presentWebhookDelivery(delivery: WebhookDelivery): Record<string, unknown> {
  return compact({
    id: delivery.id,
    object: 'webhook_delivery',
    mode: delivery.mode,
    event: delivery.eventId,
    endpoint: delivery.endpointId,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    response_status: delivery.responseStatus,
    next_retry_at: delivery.nextRetryAt && timestamp(delivery.nextRetryAt),
    created: timestamp(delivery.created),
  });
}

/** What each kind of event's `data` names, for the examples: the objects of the paid example intent. */
const EXAMPLE_SUBJECTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  payment_intent: { id: 'pi_wRuAd6OgjF8fafigzwZwk6WP', object: 'payment_intent' },
  dispute: { id: 'dp_xJkNMBAYob3uSX8IkZURhUxx', object: 'dispute' },
  settlement: { id: 'st_7KI3F6H43Q6IW6HBIH5VUP6KQQ', object: 'settlement', amount: { amount: 1254731, currency: 'THB' } },
  refund: { id: 're_6ARALTDKWAYPRCBBH2ADCANQIF', object: 'refund', payment_intent: 'pi_wRuAd6OgjF8fafigzwZwk6WP', amount: { amount: 5000, currency: 'THB' } },
};

/** The status a subject is in once an event of `type` was written. */
const EXAMPLE_STATUSES: Readonly<Record<string, string>> = {
  'dispute.opened': 'opened',
  'dispute.updated': 'under_review',
  'dispute.closed': 'won',
  'refund.created': 'pending',
};

/** An event of `type` as GET /v1/events lists it and a webhook delivers it. */
export function exampleEvent(type: EventType): Record<string, unknown> {
  const [kind, status] = type.split('.');
  return {
    id: 'evt_EHSRNWI3EMWGYZZFIJCSNYR7MX',
    type,
    created: '2026-09-01T10:02:41Z',
    livemode: false,
    data: { ...EXAMPLE_SUBJECTS[kind], status: EXAMPLE_STATUSES[type] ?? status, merchant: 'mch_rQD6kiOB5qG3LzhjKL1k', mode: 'test' },
  };
}

const WEBHOOK_PUBLIC_KEY_EXAMPLE = {
  id: 'key_JA4CPBU4FLHX5ZINY6BHZKST52',
  object: 'webhook_public_key',
  algorithm: 'ed25519',
  public_key: 'D3ywXq2VtNnWc8x6dO4fKcJr7pS9uYh1mLbZaEgT0Ao=',
} as const;

/** The answers of events and of the webhook public keys (merchant API). */
export const EVENT_SCHEMAS = components({
  ...MONEY,
  EventData: object(
    ['id', 'object', 'status', 'merchant', 'mode'],
    {
      id: { type: 'string', description: 'The id of the object the event is about (`pi_…`, `dp_…`, `st_…`, `re_…`).' },
      object: { type: 'string', description: 'Its kind: `payment_intent`, `dispute`, `settlement` or `refund`.' },
      status: { type: 'string', description: 'Its status once the change was made.' },
      merchant: {
        type: 'string',
        pattern: '^mch_',
        description:
          'The merchant it belongs to, the only one its deliveries go to. The platform key (v2) signs every merchant’s deliveries alike, so a receiver verifying by it checks this is its own merchant id.',
      },
      mode: { ...mode, description: 'Its mode, as `livemode` says; a receiver verifying by the platform key (v2) checks it is the mode of its own key.' },
      amount: { ...ref('Money'), description: 'Settlement and refund events: the amount.' },
      payment_intent: { type: 'string', description: 'Refund events: the payment intent refunded.' },
    },
    'A notice, not the object: read the object through the API before acting.',
  ),
  Event: {
    ...object(
      ['id', 'type', 'created', 'livemode', 'data'],
      {
        id: {
          type: 'string',
          pattern: ID_PATTERNS.event.source,
          description: 'Unique identifier, `evt_…`: the same on every delivery and resend of the event; de-duplicate on it.',
        },
        type: {
          type: 'string',
          enum: [...EVENT_TYPES],
          description:
            'refund.created, refund.succeeded and refund.failed reach only the webhook endpoints whose enabled_events names them (an empty list means every other type); GET /v1/events lists them all.',
        },
        created: { ...dateTime, description: 'When the change was made, to the second.' },
        livemode: { type: 'boolean', description: 'Whether it happened in live mode.' },
        data: { ...ref('EventData'), description: 'The object the event is about, as the change left it.' },
      },
      'A change the service announces: what GET /v1/events lists and webhooks deliver.',
    ),
    examples: [exampleEvent('payment_intent.succeeded')],
  },
  EventList: list('Event', exampleEvent('payment_intent.succeeded')),
  WebhookPublicKey: {
    ...object(
      ['id', 'object', 'algorithm', 'public_key'],
      {
        id: { type: 'string', pattern: '^key_[A-Z2-7]+$', description: 'Unique identifier, `key_…`: what `v2_kid` names.' },
        object: { ...constant('webhook_public_key'), description: 'Always `webhook_public_key`.' },
        algorithm: { ...constant('ed25519'), description: 'Always `ed25519`.' },
        public_key: { type: 'string', contentEncoding: 'base64', description: 'The raw 32-byte Ed25519 key.' },
      },
      'A key the platform signs webhook deliveries with (`v2` of X-Webhook-Signature).',
    ),
    examples: [WEBHOOK_PUBLIC_KEY_EXAMPLE],
  },
  WebhookPublicKeyList: list('WebhookPublicKey', WEBHOOK_PUBLIC_KEY_EXAMPLE),
});

/** The answers of webhook endpoints and their deliveries (dashboard). */
export const WEBHOOK_ENDPOINT_SCHEMAS = components({
  WebhookEndpoint: object(['id', 'object', 'mode', 'url', 'enabled_events', 'status', 'created', 'updated'], {
    id: idMatching(ID_PATTERNS.webhook_endpoint),
    object: constant('webhook_endpoint'),
    mode,
    url: { type: 'string' },
    enabled_events: { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] }, description: 'Empty: every event type.' },
    description: { type: 'string' },
    api_version: { type: 'string' },
    status: { type: 'string', enum: [...WEBHOOK_ENDPOINT_STATUSES] },
    disabled_reason: {
      type: 'string',
      enum: [...WEBHOOK_ENDPOINT_DISABLED_REASONS],
      description:
        'Why a disabled endpoint is disabled: gone (it answered 410 Gone), failing (five days of failed deliveries without a success) or manual (someone disabled it). ' +
        'Absent while enabled, and on endpoints disabled before reasons were kept.',
    },
    secret: { type: 'string', description: 'Only in the answer that creates the endpoint, never again.' },
    created: dateTime,
    updated: dateTime,
    delivery_attempts: { type: 'integer' },
    success_rate: { type: 'number', description: 'Share of attempts answered 2xx; absent before the first attempt.' },
    last_error: { type: 'string' },
    last_error_at: dateTime,
  }),
  WebhookEndpointList: list('WebhookEndpoint'),
  WebhookEndpointDeleted: object(['id', 'object', 'deleted'], {
    id: idMatching(ID_PATTERNS.webhook_endpoint),
    object: constant('webhook_endpoint'),
    deleted: constant(true),
  }),
  WebhookDelivery: object(['id', 'object', 'mode', 'event', 'endpoint', 'url', 'status', 'attempts', 'created'], {
    id: idMatching(ID_PATTERNS.webhook_delivery),
    object: constant('webhook_delivery'),
    mode: { ...mode, description: 'The mode of its endpoint and event (a resend needs no `?mode=`).' },
    event: idMatching(ID_PATTERNS.event),
    endpoint: idMatching(ID_PATTERNS.webhook_endpoint),
    url: { type: 'string', description: 'Where its last attempt went (the endpoint’s url of that moment).' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    response_status: { type: 'integer' },
    next_retry_at: dateTime,
    created: dateTime,
  }),
  WebhookDeliveryList: list('WebhookDelivery'),
});
