import { ID_PATTERNS, ListEvents, renderEvent } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { limit } from '../schemas';

const eventListQuery = objectSchema({
  limit,
  starting_after: Joi.string().pattern(ID_PATTERNS.event, 'event id'),
});

export default defineRoute({
  method: 'GET',
  path: '/v1/events',
  access: 'api-key',
  validate: { query: eventListQuery },
  openapi: {
    operationId: 'listEvents',
    summary: 'List events of the key’s mode, newest first (the bodies webhooks deliver)',
    tag: 'Events',
    success: { status: 200, schema: 'EventList', description: 'A page of events.' },
  },
  uses: { listEvents: ListEvents },
  handler:
    ({ listEvents }) =>
    async (request) => {
      const page = await listEvents.execute({ scope: scopeOf(request), page: { limit: request.query.limit, startingAfter: request.query.starting_after } });
      // Rendered by core's version registry: the same body every webhook delivery of the event carries.
      return presentList(page, (event) => renderEvent(event));
    },
});
