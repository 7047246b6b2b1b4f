import { defineRoute } from '../../http/define-route';
import { WEBHOOK_ENDPOINT_SCHEMAS, presentWebhookOptions } from './presenters';

/** The choices of an endpoint's form: its event types (and what none means) and the API versions. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/webhook_options',
  access: 'dashboard',
  action: 'webhook_endpoints.read',
  openapi: {
    operationId: 'retrieveWebhookOptions',
    summary: 'The event types and API versions an endpoint may name',
    description:
      '`event_types`: what `enabled_events` may hold; `default_event_types`: what an endpoint with none receives (every type but the refund events); ' +
      '`api_versions`: what `api_version` may be, oldest first. The same for every account and mode.',
    tag: 'Webhooks',
    success: { status: 200, schema: WEBHOOK_ENDPOINT_SCHEMAS.WebhookOptions, description: 'The options.' },
  },
  handler: () => () => presentWebhookOptions(),
});
