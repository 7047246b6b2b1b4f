import type { ServerRoute } from '@hapi/hapi';
import type { ListEvents } from '@payments/core';
import { scopeOf } from './payment-intents.route';
import { presentEvent, presentList } from './presenters';
import { eventListQuery } from './schemas';

export function eventRoutes(deps: { listEvents: ListEvents }): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/events',
      options: {
        validate: { query: eventListQuery },
        handler: async (request) => {
          const query = request.query as { limit: number; starting_after?: string };
          const page = await deps.listEvents.execute({ scope: scopeOf(request), page: { limit: query.limit, startingAfter: query.starting_after } });
          return presentList(page, presentEvent);
        },
      },
    },
  ];
}
