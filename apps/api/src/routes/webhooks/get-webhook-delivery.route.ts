import { GetWebhookDelivery, ID_PATTERNS, MODES } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { idParams } from '../schemas';
import { WEBHOOK_ENDPOINT_SCHEMAS, presentWebhookDeliveryDetail } from './presenters';

/** Not a *mode* route: the delivery names its mode. `mode` is an optional filter, as on the delivery log. */
const deliveryQuery = objectSchema({
  mode: oneOf(MODES).description('Only a delivery of this mode (another is 404). Without it: the delivery, whatever its mode.'),
});

/** One delivery of the log: its event's type, the body it sent, and every attempt with the endpoint's answer. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/webhook_deliveries/{id}',
  access: 'dashboard',
  action: 'webhook_deliveries.read',
  validate: { params: idParams(ID_PATTERNS.webhook_delivery, 'webhook delivery id'), query: deliveryQuery },
  openapi: {
    operationId: 'retrieveWebhookDelivery',
    summary: 'Retrieve a webhook delivery with what it sent and what the endpoint answered',
    description:
      'The delivery, its `event_type`, `request.body` (the exact body sent: the event rendered again at the version its last attempt used, `request.api_version`; ' +
      'not stored, and without its signature headers) and `attempt_log`, oldest first, each attempt with the status, the start of the answer ' +
      '(`response_body`, at most 1 KiB) and the reason it failed. Not a per-mode route; `mode` is a filter.',
    tag: 'Webhooks',
    success: { status: 200, schema: WEBHOOK_ENDPOINT_SCHEMAS.WebhookDeliveryDetail, description: 'The delivery.' },
    errors: [404],
  },
  uses: { getWebhookDelivery: GetWebhookDelivery },
  handler:
    ({ getWebhookDelivery }) =>
    async (request) =>
      presentWebhookDeliveryDetail(await getWebhookDelivery.execute(actorOf(request).user, request.query.mode, request.params.id)),
});
