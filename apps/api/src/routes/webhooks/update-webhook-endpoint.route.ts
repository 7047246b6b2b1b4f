import { GetWebhookEndpointHealth, UpdateWebhookEndpoint } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { actorOf } from '../../plugins/dashboard/actor';
import { jsonBody, text, webhookDescription, webhookEndpointParams, webhookEvents } from '../schemas';
import { WEBHOOK_ENDPOINT_SCHEMAS, presentEndpointWithHealth } from './presenters';

const webhookEndpointPatchBody = jsonBody({
  url: text,
  enabled_events: webhookEvents,
  description: webhookDescription,
  api_version: text,
  status: text,
});

export default defineRoute({
  method: 'PATCH',
  path: '/dashboard/v1/webhook_endpoints/{id}',
  access: 'dashboard',
  action: 'webhook_endpoints.write',
  validate: { params: webhookEndpointParams, payload: webhookEndpointPatchBody },
  openapi: {
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    tag: 'Webhooks',
    success: { status: 200, schema: WEBHOOK_ENDPOINT_SCHEMAS.WebhookEndpoint, description: 'The endpoint as changed.' },
    errors: [404],
  },
  uses: { updateWebhookEndpoint: UpdateWebhookEndpoint, health: GetWebhookEndpointHealth },
  handler:
    ({ updateWebhookEndpoint, health }) =>
    async (request) => {
      const body = request.payload;
      const endpoint = await updateWebhookEndpoint.execute(actorOf(request).user, request.params.id, {
        url: body.url,
        enabledEvents: body.enabled_events,
        description: body.description,
        apiVersion: body.api_version,
        status: body.status,
      });
      return presentEndpointWithHealth(health, endpoint);
    },
});
