import { defineRoute } from '../../http/define-route';
import { buildOpenApi, type OpenApiDocument } from '../../openapi/build-openapi';

/**
 * The OpenAPI document of the `/v1` routes this server really has. Open like `/health`: it
 * describes the API, holds no data. Built on first request, once every plugin has registered.
 */
export default defineRoute({
  method: 'GET',
  path: '/v1/openapi.json',
  access: 'open',
  openapi: {
    operationId: 'getOpenApiDocument',
    summary: 'This document (no API key needed)',
    tag: 'Meta',
    success: { status: 200, schema: 'OpenApiDocument', description: 'The OpenAPI 3.1 document of /v1.' },
    open: true,
  },
  handler: () => {
    let document: OpenApiDocument | undefined;
    return (request, h) => {
      document ??= buildOpenApi(request.server.table());
      return h.response(document).type('application/json; charset=utf-8');
    };
  },
});
