import type { GetWebhookEndpointHealth, WebhookDelivery, WebhookEndpoint, WebhookEndpointHealth } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';

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
