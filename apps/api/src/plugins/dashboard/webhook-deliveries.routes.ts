import type { ServerRoute } from '@hapi/hapi';
import { ID_PATTERNS, type ListWebhookDeliveries, type Mode, type ResendWebhookDelivery, type WebhookDelivery } from '@payments/core';
import Joi from 'joi';
import { compact, presentList, timestamp } from '../../http/presenting';
import { actorOf, dashboardRoute, modeQuery } from './dashboard-route';

export interface WebhookDeliveryRoutesDeps {
  readonly listWebhookDeliveries: ListWebhookDeliveries;
  readonly resendWebhookDelivery: ResendWebhookDelivery;
}

/**
 * Not a *mode* route: `mode` is an optional filter. With `endpoint` the list is that endpoint's
 * deliveries (an endpoint has one mode); without either, the account's deliveries of both modes,
 * each naming its mode (which resend needs).
 */
const listQuery = Joi.object({
  mode: Joi.string().valid('test', 'live').description('Only deliveries of this mode. Without it: both modes.'),
  endpoint: Joi.string().max(64).pattern(ID_PATTERNS.webhook_endpoint, 'webhook endpoint id').description("Only this endpoint's deliveries (whatever its mode; no mode needed)."),
  limit: Joi.number().integer().min(1).max(100).default(20),
  starting_after: Joi.string().max(64).pattern(ID_PATTERNS.webhook_delivery, 'webhook delivery id'),
});

const deliveryParams = Joi.object({ id: Joi.string().max(64).pattern(ID_PATTERNS.webhook_delivery, 'webhook delivery id').required() });

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

/** The webhook delivery log: list (newest first; by endpoint, by mode, or all) and resend. */
export function webhookDeliveryRoutes(deps: WebhookDeliveryRoutesDeps): ServerRoute[] {
  return [
    dashboardRoute({
      method: 'GET',
      path: '/dashboard/v1/webhook_deliveries',
      action: 'webhook_deliveries.read',
      validate: { query: listQuery },
      handler: async (request) => {
        const query = request.query as { mode?: Mode; endpoint?: string; limit: number; starting_after?: string };
        const page = await deps.listWebhookDeliveries.execute(actorOf(request).user, query.mode, {
          limit: query.limit,
          ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
          ...(query.endpoint === undefined ? {} : { endpointId: query.endpoint }),
        });
        return presentList(page, presentWebhookDelivery);
      },
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/webhook_deliveries/{id}/resend',
      action: 'webhook_deliveries.write',
      validate: { params: deliveryParams, query: modeQuery },
      handler: async (request, h) => {
        const query = request.query as { mode: Mode };
        const delivery = await deps.resendWebhookDelivery.execute(actorOf(request).user, query.mode, String(request.params.id));
        return h.response(presentWebhookDelivery(delivery)).code(202);
      },
    }),
  ];
}
