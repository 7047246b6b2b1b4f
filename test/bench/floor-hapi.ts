import Hapi from '@hapi/hapi';
import { authenticate, createIntent, getIntent, INTENTS_PATH, JSON_TYPE, listIntents, UNAUTHORIZED, type Answer } from './floor-server';
import type { FloorStore, KeyRow } from './floor-store';

/**
 * The floor's create, get and list on a bare `@hapi/hapi` server: the same paths, the same code
 * per route as the node:http floor (floor-server.ts), over whichever store it is given (the
 * driver's, or knex's: floor-knex.ts). What it adds to the floor is Hapi's request lifecycle only:
 * no plugins, no auth scheme (the key is checked in the handler, as the floor checks it), no
 * validation library, and create's body read raw (`parse: false`) so its fingerprint and JSON
 * parse are the floor's.
 */
/** The body of a route that reads it raw (`parse: false`, `output: 'data'`): bytes, as hapi hands them over. */
function rawBody(request: Hapi.Request): string {
  if (!Buffer.isBuffer(request.payload)) throw new TypeError('The create route reads its payload raw.');
  return request.payload.toString('utf8');
}

export async function startHapiFloor(store: FloorStore): Promise<Hapi.Server> {
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });
  const reply = (h: Hapi.ResponseToolkit, answer: Answer): Hapi.ResponseObject => {
    const response = h.response(answer.body).code(answer.status).type(JSON_TYPE);
    for (const [name, value] of Object.entries(answer.headers ?? {})) response.header(name, value);
    return response;
  };
  const authenticated =
    (route: (account: KeyRow, request: Hapi.Request) => Promise<Answer>): Hapi.Lifecycle.Method =>
    async (request, h) => {
      const header: unknown = request.headers['authorization'];
      const account = await authenticate(store, typeof header === 'string' ? header : undefined);
      return reply(h, account === undefined ? UNAUTHORIZED : await route(account, request));
    };
  server.route([
    {
      method: 'POST',
      path: INTENTS_PATH,
      options: { payload: { parse: false, output: 'data' } },
      handler: authenticated((account, request) => createIntent(store, account, rawBody(request), request.headers['idempotency-key'], false)),
    },
    {
      method: 'GET',
      path: INTENTS_PATH,
      handler: authenticated((account, request) => {
        const limit = request.query['limit'];
        return listIntents(store, account, typeof limit === 'string' ? limit : limit === undefined ? null : '');
      }),
    },
    {
      method: 'GET',
      path: `${INTENTS_PATH}/{id}`,
      handler: authenticated((account, request) => getIntent(store, account, String(request.params['id']))),
    },
  ]);
  await server.start();
  return server;
}
