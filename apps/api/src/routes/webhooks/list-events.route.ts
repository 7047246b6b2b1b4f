import { ID_PATTERNS, ListEvents, renderEvent } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { limit, pageOf, startingAfter } from '../schemas';
import { EVENT_SCHEMAS } from './presenters';

const eventListQuery = objectSchema({
  limit,
  starting_after: startingAfter(Joi.string().pattern(ID_PATTERNS.event, 'event id')),
});

export default defineRoute({
  method: 'GET',
  path: '/v1/events',
  access: 'api-key',
  permission: 'events:read',
  validate: { query: eventListQuery },
  openapi: {
    operationId: 'listEvents',
    summary: 'List events of the key’s mode, newest first (the bodies webhooks deliver)',
    description:
      'Every event of the key’s merchant and mode, of every type (refund events included, which reach only the webhook endpoints that name them), ' +
      'newest first, a page at a time; each item is the body a webhook delivery of it carries. ' +
      'A `starting_after` that is not an event of this merchant and mode is 400 `invalid_parameter`.',
    tag: 'Events',
    success: { status: 200, schema: EVENT_SCHEMAS.EventList, description: 'A page of events.' },
  },
  uses: { listEvents: ListEvents },
  handler:
    ({ listEvents }) =>
    async (request) => {
      const page = await listEvents.execute({ scope: scopeOf(request), page: pageOf(request.query) });
      // Rendered by core's version registry: the same body every webhook delivery of the event carries.
      return presentList(page, (event) => renderEvent(event));
    },
});
