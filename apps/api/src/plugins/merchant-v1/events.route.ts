import type { ServerRoute } from '@hapi/hapi';
import type { ListEvents, PlatformKeys } from '@payments/core';
import { scopeOf } from './caller';
import { presentEvent, presentList } from './presenters';
import { eventListQuery } from './schemas';

export function eventRoutes(deps: { listEvents: ListEvents; platformKeys: PlatformKeys }): ServerRoute[] {
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
    {
      method: 'GET',
      path: '/v1/webhook_public_keys',
      options: {
        // The published platform keys receivers check `v2` against; the first is made on first need.
        handler: async () =>
          presentList(await deps.platformKeys.published(), (key) => ({ id: key.id, object: 'webhook_public_key', algorithm: 'ed25519', public_key: key.publicKey })),
      },
    },
  ];
}
