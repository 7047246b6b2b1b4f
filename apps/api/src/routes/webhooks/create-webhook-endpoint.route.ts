import { CreateWebhookEndpoint, GetWebhookEndpointHealth } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { required } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { jsonBody, modeQuery, text, webhookDescription, webhookEvents } from '../schemas';
import { WEBHOOK_ENDPOINT_SCHEMAS, presentEndpointWithHealth } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/webhook_endpoints',
  access: 'dashboard',
  action: 'webhook_endpoints.write',
  validate: { query: modeQuery, payload: jsonBody({ url: required(text), enabled_events: webhookEvents, description: webhookDescription }) },
  openapi: {
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint; its signing secret is in this answer only',
    tag: 'Webhooks',
    success: { status: 201, schema: WEBHOOK_ENDPOINT_SCHEMAS.WebhookEndpoint, description: 'The endpoint with its secret.' },
  },
  uses: { createWebhookEndpoint: CreateWebhookEndpoint, health: GetWebhookEndpointHealth },
  handler:
    ({ createWebhookEndpoint, health }) =>
    async (request, h) => {
      const body = request.payload;
      const { endpoint, secret } = await createWebhookEndpoint.execute(actorOf(request).user, {
        mode: request.query.mode,
        url: body.url,
        enabledEvents: body.enabled_events,
        description: body.description,
      });
      return h.response({ ...(await presentEndpointWithHealth(health, endpoint)), secret }).code(201);
    },
});
