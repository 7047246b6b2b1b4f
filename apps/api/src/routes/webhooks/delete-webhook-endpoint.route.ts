import { DeleteWebhookEndpoint } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { actorOf } from '../../plugins/dashboard/actor';
import { webhookEndpointParams } from '../schemas';
import { WEBHOOK_ENDPOINT_SCHEMAS } from './presenters';

export default defineRoute({
  method: 'DELETE',
  path: '/dashboard/v1/webhook_endpoints/{id}',
  access: 'dashboard',
  action: 'webhook_endpoints.write',
  validate: { params: webhookEndpointParams },
  openapi: {
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint (nothing more is queued for it)',
    tag: 'Webhooks',
    success: { status: 200, schema: WEBHOOK_ENDPOINT_SCHEMAS.WebhookEndpointDeleted, description: 'Deleted.' },
    errors: [404],
  },
  uses: { deleteWebhookEndpoint: DeleteWebhookEndpoint },
  handler:
    ({ deleteWebhookEndpoint }) =>
    async (request) => {
      const { id } = await deleteWebhookEndpoint.execute(actorOf(request).user, request.params.id);
      return { id, object: 'webhook_endpoint', deleted: true };
    },
});
