import { GetEvent, renderEvent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeIn } from '../../plugins/dashboard/actor';
import { eventId, modeQuery } from '../schemas';
import { objectSchema, required } from '../../http/typed-schema';
import { EVENT_SCHEMAS } from './presenters';

/** *mode*: one event with the body webhooks carry, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/events/{id}',
  access: 'dashboard',
  action: 'events.read',
  validate: { params: objectSchema({ id: required(eventId) }), query: modeQuery },
  openapi: {
    operationId: 'retrieveEvent',
    summary: 'Retrieve an event',
    description: 'With its body as GET /v1/events shows it. An event of another merchant or of the other mode is 404.',
    tag: 'Events',
    success: { status: 200, schema: EVENT_SCHEMAS.Event, description: 'The event.' },
    errors: [404],
  },
  uses: { getEvent: GetEvent },
  handler:
    ({ getEvent }) =>
    async (request) =>
      renderEvent(await getEvent.execute({ scope: scopeIn(request, request.query.mode), id: request.params.id })),
});
