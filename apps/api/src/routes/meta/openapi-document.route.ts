import { defineRoute } from '../../http/define-route';
import { buildOpenApi, type OpenApiDocument } from '../../openapi/build-openapi';
import { components } from '../../openapi/json-schema';

/** The answer of the document route. */
export const OPENAPI_DOCUMENT_SCHEMAS = components({
  OpenApiDocument: {
    type: 'object',
    description: 'An OpenAPI 3.1 document.',
    required: ['openapi', 'info', 'paths'],
    properties: {
      openapi: { type: 'string', description: 'The OpenAPI version of the document: 3.1.0.' },
      info: { type: 'object', description: 'Its title, the current API version and an overview.' },
      paths: { type: 'object', description: 'Every route of /v1, by path and method.' },
    },
    examples: [{ openapi: '3.1.0', info: { title: 'Payment service merchant API', version: '2026-09-01' }, paths: {} }],
  },
});

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
    description:
      'The OpenAPI 3.1 document of the /v1 routes this server has, built from its route table. No API key is needed: it describes the API and holds no data.',
    tag: 'Meta',
    success: { status: 200, schema: OPENAPI_DOCUMENT_SCHEMAS.OpenApiDocument, description: 'The OpenAPI 3.1 document of /v1.' },
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
