import { GetWebhookEndpointHealth, ListWebhookEndpoints } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { actorOf } from '../../plugins/dashboard/actor';
import { modeQuery } from '../schemas';
import { WEBHOOK_ENDPOINT_SCHEMAS, presentEndpointWithHealth } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/webhook_endpoints',
  access: 'dashboard',
  action: 'webhook_endpoints.read',
  validate: { query: modeQuery },
  openapi: {
    operationId: 'listWebhookEndpoints',
    summary: "List the mode's webhook endpoints with their delivery health",
    tag: 'Webhooks',
    success: { status: 200, schema: WEBHOOK_ENDPOINT_SCHEMAS.WebhookEndpointList, description: 'The endpoints.' },
  },
  uses: { listWebhookEndpoints: ListWebhookEndpoints, health: GetWebhookEndpointHealth },
  handler:
    ({ listWebhookEndpoints, health }) =>
    async (request) => {
      const endpoints = await listWebhookEndpoints.execute(actorOf(request).user, request.query.mode);
      return presentList(await Promise.all(endpoints.map((endpoint) => presentEndpointWithHealth(health, endpoint))), (shown) => shown);
    },
});
