import { EVENT_TYPES, ListEvents, renderEvent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { oneOf } from '../../http/typed-schema';
import { scopeIn } from '../../plugins/dashboard/actor';
import { eventId, limit, pageOf, withMode } from '../schemas';
import { EVENT_SCHEMAS } from './presenters';

const eventsQuery = withMode({
  type: oneOf(EVENT_TYPES),
  limit,
  starting_after: eventId,
});

/** *mode*: the account's event log, newest first, as GET /v1/events shows it, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/events',
  access: 'dashboard',
  action: 'events.read',
  validate: { query: eventsQuery },
  openapi: {
    operationId: 'listEvents',
    summary: 'List events, newest first (the bodies webhooks deliver)',
    description:
      'Every event type, the opt-in refund.* ones included, each with its body as GET /v1/events shows it; `type` keeps one type. ' +
      '`limit` (1–100, default 20) and `starting_after` page as on /v1.',
    tag: 'Events',
    success: { status: 200, schema: EVENT_SCHEMAS.EventList, description: 'A page of events.' },
  },
  uses: { listEvents: ListEvents },
  handler:
    ({ listEvents }) =>
    async (request) => {
      const { query } = request;
      const page = await listEvents.execute({
        scope: scopeIn(request, query.mode),
        filter: { type: query.type },
        page: pageOf(query),
      });
      return presentList(page, (event) => renderEvent(event));
    },
});
