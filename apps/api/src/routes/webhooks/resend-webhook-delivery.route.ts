import { ID_PATTERNS, ResendWebhookDelivery } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { actorOf } from '../../plugins/dashboard/actor';
import { idParams, modeQuery } from '../schemas';
import { WEBHOOK_ENDPOINT_SCHEMAS, presentWebhookDelivery } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/webhook_deliveries/{id}/resend',
  access: 'dashboard',
  action: 'webhook_deliveries.write',
  validate: { params: idParams(ID_PATTERNS.webhook_delivery, 'webhook delivery id'), query: modeQuery },
  openapi: {
    operationId: 'resendWebhookDelivery',
    summary: 'Queue one more attempt of a delivery (the relay sends it)',
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
