import { EVENT_TYPES, ID_PATTERNS, SendWebhookTestEvent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { oneOf } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { idParams, jsonBody } from '../schemas';
import { WEBHOOK_ENDPOINT_SCHEMAS, presentWebhookTestEvent } from './presenters';

const testEventBody = jsonBody({
  type: oneOf(EVENT_TYPES).description('The event type to send an example of. Default: the endpoint’s first, else payment_intent.succeeded.'),
});

/** "Send test event": an example event POSTed to the endpoint now, its answer shown at once. */
export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/webhook_endpoints/{id}/test_event',
  access: 'dashboard',
  action: 'webhook_endpoints.write',
  validate: { params: idParams(ID_PATTERNS.webhook_endpoint, 'webhook endpoint id'), payload: testEventBody },
  openapi: {
    operationId: 'sendWebhookTestEvent',
    summary: 'Send a test event to an endpoint and show its answer',
    description:
      'Sends one example event of `type` to the endpoint now, rendered at its `api_version` and signed like a delivery (its secret, the platform key), ' +
      'through the same egress rules, and answers what was sent and what the endpoint answered (at most 10 s). The event is no event of the log: ' +
      'the objects it names have ids of one repeated character (`pi_000000000000000000000000`) that the API never issues, so reading one back finds nothing. ' +
      'Not a per-mode route: the endpoint has its mode. A disabled endpoint is sent it too. Audited.',
    tag: 'Webhooks',
    success: { status: 200, schema: WEBHOOK_ENDPOINT_SCHEMAS.WebhookTestEvent, description: 'What was sent and answered.' },
    errors: [404],
  },
  uses: { sendWebhookTestEvent: SendWebhookTestEvent },
  handler:
    ({ sendWebhookTestEvent }) =>
    async (request) =>
      presentWebhookTestEvent(await sendWebhookTestEvent.execute(actorOf(request).user, request.params.id, request.payload.type)),
});
