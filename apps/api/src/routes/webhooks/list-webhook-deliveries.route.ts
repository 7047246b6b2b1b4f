import { ID_PATTERNS, ListWebhookDeliveries, MODES, WebhookDeliveryEventTypes } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { idOf, limit } from '../schemas';
import { WEBHOOK_ENDPOINT_SCHEMAS, presentWebhookDelivery } from './presenters';

/**
 * Not a *mode* route: `mode` is an optional filter. With `endpoint` the list is that endpoint's
 * deliveries (an endpoint has one mode); without either, the account's deliveries of both modes,
 * each naming its mode.
 */
const listQuery = objectSchema({
  mode: oneOf(MODES).description('Only deliveries of this mode. Without it: both modes.'),
  endpoint: idOf(ID_PATTERNS.webhook_endpoint, 'webhook endpoint id').description("Only this endpoint's deliveries (whatever its mode; no mode needed)."),
  limit,
  starting_after: idOf(ID_PATTERNS.webhook_delivery, 'webhook delivery id'),
});

/** The webhook delivery log, newest first: by endpoint, by mode, or all. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/webhook_deliveries',
  access: 'dashboard',
  action: 'webhook_deliveries.read',
  validate: { query: listQuery },
  openapi: {
    operationId: 'listWebhookDeliveries',
    summary: 'List webhook deliveries, newest first',
    description:
      "Not a per-mode route. With `endpoint`: that endpoint's deliveries, whatever its mode. Without it: the account's deliveries of both modes. " +
      "`mode` narrows either to one mode. Each delivery names its mode and its event's type.",
    tag: 'Webhooks',
    success: { status: 200, schema: WEBHOOK_ENDPOINT_SCHEMAS.WebhookDeliveryList, description: 'A page of deliveries.' },
  },
  uses: { listWebhookDeliveries: ListWebhookDeliveries, eventTypes: WebhookDeliveryEventTypes },
  handler:
    ({ listWebhookDeliveries, eventTypes }) =>
    async (request) => {
      const { query } = request;
      const page = await listWebhookDeliveries.execute(actorOf(request).user, query.mode, {
        limit: query.limit,
        ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
        ...(query.endpoint === undefined ? {} : { endpointId: query.endpoint }),
      });
      const types = await eventTypes.execute(page.data);
      return presentList(page, (delivery) => presentWebhookDelivery(delivery, types.get(delivery.eventId)));
    },
});
