import { ID_PATTERNS, MODES, ResendWebhookDelivery } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { idParams } from '../schemas';
import { WEBHOOK_ENDPOINT_SCHEMAS, presentWebhookDelivery } from './presenters';

/** Not a *mode* route: the delivery names its mode. `mode` is an optional filter, as on the delivery log. */
const resendQuery = objectSchema({
  mode: oneOf(MODES).description('Only a delivery of this mode (another is 404). Without it: the delivery, whatever its mode.'),
});

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/webhook_deliveries/{id}/resend',
  access: 'dashboard',
  action: 'webhook_deliveries.write',
  validate: { params: idParams(ID_PATTERNS.webhook_delivery, 'webhook delivery id'), query: resendQuery },
  openapi: {
    operationId: 'resendWebhookDelivery',
    summary: 'Queue one more attempt of a delivery (the relay sends it)',
    description:
      'Not a per-mode route: the delivery names its mode, so no `mode` is needed. `mode`, when given, is a filter: a delivery of the other mode is then 404, ' +
      "like another merchant's.",
    tag: 'Webhooks',
    success: { status: 202, schema: WEBHOOK_ENDPOINT_SCHEMAS.WebhookDelivery, description: 'The delivery, due now.' },
    errors: [404],
  },
  uses: { resendWebhookDelivery: ResendWebhookDelivery },
  handler:
    ({ resendWebhookDelivery }) =>
    async (request, h) => {
      const delivery = await resendWebhookDelivery.execute(actorOf(request).user, request.query.mode, request.params.id);
      return h.response(presentWebhookDelivery(delivery)).code(202);
    },
});
