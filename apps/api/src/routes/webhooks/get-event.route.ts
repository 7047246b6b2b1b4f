import { GetEvent, renderEvent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { objectSchema, required } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { eventId } from '../schemas';
import { EVENT_SCHEMAS } from './presenters';

/** One event, with the body GET /v1/events lists it with and webhooks deliver. */
export default defineRoute({
  method: 'GET',
  path: '/v1/events/{id}',
  access: 'api-key',
  permission: 'events:read',
  validate: { params: objectSchema({ id: required(eventId) }) },
  openapi: {
    operationId: 'retrieveEvent',
    summary: 'Retrieve an event',
    description:
      'One event, with the body GET /v1/events lists it with: so a receiver can read back an event it was sent, or a client one it listed. Another merchant’s event, or one of the other mode, is 404 `resource_not_found` like an unknown one; an id of the wrong shape is ' +
      '400 `invalid_parameter` naming `id`.',
    tag: 'Events',
    success: { status: 200, schema: EVENT_SCHEMAS.Event, description: 'The event.' },
    errors: { 404: ['resource_not_found'] },
  },
  uses: { getEvent: GetEvent },
  handler:
    ({ getEvent }) =>
    async (request) =>
      // Rendered as the list renders it, so an event reads the same from either.
      renderEvent(await getEvent.execute({ scope: scopeOf(request), id: request.params.id })),
});
