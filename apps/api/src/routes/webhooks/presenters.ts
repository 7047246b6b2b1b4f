import {
  API_VERSIONS,
  CURRENT_API_VERSION,
  DEFAULT_EVENT_TYPES,
  EVENT_TYPES,
  type EventType,
  type GetWebhookEndpointHealth,
  ID_PATTERNS,
  WEBHOOK_ENDPOINT_DISABLED_REASONS,
  WEBHOOK_ENDPOINT_STATUSES,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookDeliveryDetail,
  type WebhookEndpoint,
  type WebhookTestEventResult,
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

/** A delivery as the dashboard shows it (with its event's type when known): absent fields are omitted. */
export function presentWebhookDelivery(delivery: WebhookDelivery, eventType?: string): Record<string, unknown> {
  return compact({
    id: delivery.id,
    object: 'webhook_delivery',
    mode: delivery.mode,
    event: delivery.eventId,
    event_type: eventType,
    endpoint: delivery.endpointId,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    response_status: delivery.responseStatus,
    next_retry_at: delivery.nextRetryAt && timestamp(delivery.nextRetryAt),
    created: timestamp(delivery.created),
  });
}

function presentAttempt(attempt: WebhookDeliveryAttempt): Record<string, unknown> {
  return compact({
    id: attempt.id,
    at: timestamp(attempt.at),
    api_version: attempt.apiVersion,
    response_status: attempt.responseStatus,
    response_body: attempt.responseBody,
    latency_ms: attempt.latencyMs,
    error: attempt.error,
  });
}

/** One delivery with what it sent (the body, not its signatures) and each attempt with the endpoint's answer. */
export function presentWebhookDeliveryDetail(detail: WebhookDeliveryDetail): Record<string, unknown> {
  return {
    ...presentWebhookDelivery(detail.delivery, detail.eventType),
    request: compact({ api_version: detail.apiVersion, body: detail.requestBody }),
    attempt_log: detail.attempts.map(presentAttempt),
  };
}

/** A test event: the body sent and the endpoint's answer. */
export function presentWebhookTestEvent(result: WebhookTestEventResult): Record<string, unknown> {
  return {
    object: 'webhook_test_event',
    type: result.type,
    request: { api_version: result.apiVersion, body: result.body },
    response: compact({ status: result.status, body: result.responseBody, error: result.error, latency_ms: result.latencyMs }),
  };
}

/** What the console offers when an endpoint is made or edited. */
export function presentWebhookOptions(): Record<string, unknown> {
  return {
    object: 'webhook_options',
    event_types: [...EVENT_TYPES],
    default_event_types: [...DEFAULT_EVENT_TYPES],
    api_versions: [...API_VERSIONS],
    current_api_version: CURRENT_API_VERSION,
  };
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
    event_type: { type: 'string', enum: [...EVENT_TYPES], description: 'The type of its event.' },
    endpoint: idMatching(ID_PATTERNS.webhook_endpoint),
    url: { type: 'string', description: 'Where its last attempt went (the endpoint’s url of that moment).' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    response_status: { type: 'integer' },
    next_retry_at: dateTime,
    created: dateTime,
  }),
  WebhookDeliveryList: list('WebhookDelivery'),
  WebhookDeliveryAttempt: object(['id', 'at', 'latency_ms'], {
    id: { type: 'string' },
    at: { ...dateTime, description: 'When it was sent.' },
    api_version: { type: 'string', description: 'The API version its body was rendered at; absent on attempts logged before versions were kept.' },
    response_status: { type: 'integer', description: 'The endpoint’s HTTP status; absent when no answer came.' },
    response_body: { type: 'string', description: 'The start of the endpoint’s answer, at most 1 KiB of it, as text.' },
    latency_ms: { type: 'integer' },
    error: { type: 'string', description: 'Why it was no success, for a person.' },
  }),
  WebhookDeliveryDetail: {
    ...object(['id', 'object', 'mode', 'event', 'endpoint', 'url', 'status', 'attempts', 'created', 'request', 'attempt_log'], {
      id: idMatching(ID_PATTERNS.webhook_delivery),
      object: constant('webhook_delivery'),
      mode,
      event: idMatching(ID_PATTERNS.event),
      event_type: { type: 'string', enum: [...EVENT_TYPES] },
      endpoint: idMatching(ID_PATTERNS.webhook_endpoint),
      url: { type: 'string' },
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
      attempts: { type: 'integer' },
      response_status: { type: 'integer' },
      next_retry_at: dateTime,
      created: dateTime,
      request: {
        ...object(['api_version'], {
          api_version: { type: 'string', description: 'The version the body is rendered at: that of the last attempt, else the endpoint’s.' },
          body: { type: 'string', description: 'The exact body sent (and signed): the event rendered at `api_version`. Its signature headers are not shown.' },
        }),
      },
      attempt_log: { type: 'array', items: ref('WebhookDeliveryAttempt'), description: 'Every attempt, oldest first.' },
    }),
  },
  WebhookTestEvent: object(['object', 'type', 'request', 'response'], {
    object: constant('webhook_test_event'),
    type: { type: 'string', enum: [...EVENT_TYPES] },
    request: object(['api_version', 'body'], { api_version: { type: 'string' }, body: { type: 'string', description: 'The exact body sent and signed.' } }),
    response: object(['latency_ms'], {
      status: { type: 'integer', description: 'The endpoint’s HTTP status; absent when no answer came.' },
      body: { type: 'string', description: 'The start of its answer, at most 1 KiB, as text.' },
      error: { type: 'string', description: 'Why it was no success, for a person.' },
      latency_ms: { type: 'integer' },
    }),
  }),
  WebhookOptions: object(['object', 'event_types', 'default_event_types', 'api_versions', 'current_api_version'], {
    object: constant('webhook_options'),
    event_types: { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] }, description: 'Every type an endpoint may name in `enabled_events`.' },
    default_event_types: {
      type: 'array',
      items: { type: 'string', enum: [...EVENT_TYPES] },
      description: 'What an endpoint with an empty `enabled_events` receives: every type but the refund events, which go only to endpoints that name them.',
    },
    api_versions: { type: 'array', items: { type: 'string' }, description: 'The API versions an endpoint may be rendered at, oldest first.' },
    current_api_version: { type: 'string' },
  }),
});
