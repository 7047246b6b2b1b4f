import type { ServerRoute } from '@hapi/hapi';
import { buildOpenApi, type OpenApiDocument } from './build-openapi';

/**
 * `GET /v1/openapi.json`: the document of the routes this server really has. Open (no API key):
 * it describes the API, holds no data. Built on first request, once every plugin has registered.
 */
export function openApiRoute(): ServerRoute {
  let document: OpenApiDocument | undefined;
  return {
    method: 'GET',
    path: '/v1/openapi.json',
    options: {
      auth: false,
      handler: (request, h) => {
        document ??= buildOpenApi(request.server.table());
        return h.response(document).type('application/json; charset=utf-8');
      },
    },
  };
}

export { buildOpenApi } from './build-openapi';
