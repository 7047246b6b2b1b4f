import type { RequestRoute } from '@hapi/hapi';
import { API_VERSION_PATTERN, CURRENT_API_VERSION, IDEMPOTENCY, isRecord } from '@payments/core';
import Joi, { type Schema } from 'joi';
import { joiToJsonSchema } from './joi-schema';
import { RESPONSE_SCHEMAS, type JsonSchema } from './response-schemas';

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
};

/** The document's tags, in the order it lists them. */
const TAGS = [
  'Payment intents',
  'Payment attempts',
  'Refunds',
  'Test helpers',
  'Disputes',
  'Settlements',
  'Balance',
  'FX',
  'Events',
  'Webhooks',
  'Meta',
] as const;

/**
 * What the route table cannot say about a `/v1` route: its name, what it answers on success and
 * which errors it can add to the generic ones. Each route carries its own (`openapi` in its
 * definition); a `/v1` route without one is reported by the document test.
 */
export interface OperationInfo {
  readonly operationId: string;
  readonly summary: string;
  /** The rules a summary cannot hold (Markdown). */
  readonly description?: string;
  readonly tag: (typeof TAGS)[number];
  /** Success status and the component it answers with. */
  readonly success: { readonly status: number; readonly schema: string; readonly description: string; readonly alsoWith?: readonly number[] };
  /** Name given to the request body's schema in `components.schemas`. */
  readonly requestBody?: string;
  /** Statuses beyond the generic ones (400, 401, 403, 429, 500). */
  readonly errors?: readonly number[];
  /** Open route: no API key. */
  readonly open?: boolean;
}

/** What every POST can add: a key in use or reused with another body, a body too large or not JSON. */
export const POST_ERRORS = [409, 413, 415, 422] as const;

/** Errors any `/v1` route can answer, whatever it does. */
const GENERIC_ERRORS = [400, 401, 403, 429, 500, 503] as const;

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Bad parameter (`code` names it, `param` points at it).',
  401: 'Missing or bad API key.',
  402: 'The channel refused the payment; the failed attempt stays in the history.',
  403: 'Forbidden (for example live_not_enabled, or settlement on a schedule).',
  404: 'No such object for this key.',
  409: 'Conflict: idempotency_key_in_use, merchant_order_id_taken, invalid_state_transition …',
  413: 'request_too_large: body over 64 KiB.',
  415: 'Only application/json bodies are read.',
  422: 'Idempotency-Key reused with a different request.',
  429: 'Rate limited; Retry-After says when to try again.',
  500: 'api_error: retrying with the same Idempotency-Key is safe.',
  503: 'api_error: a dependency (database, Redis, a rate source) is unreachable for now; Retry-After says when to try again, with the same Idempotency-Key.',
};

export interface RouteValidation {
  params?: Schema;
  query?: Schema;
  payload?: Schema;
}

/** The joi schemas a route validates with (what is not one, a route cannot document). */
export function routeValidation(route: RequestRoute): RouteValidation {
  const validate = route.settings.validate;
  const schema = (value: unknown): Schema | undefined => (Joi.isSchema(value) ? value : undefined);
  return { params: schema(validate?.params), query: schema(validate?.query), payload: schema(validate?.payload) };
}

/**
 * The OpenAPI 3.1 document of `/v1`, made from the live route table: paths, parameters and
 * request bodies from each route's joi schemas; answers from each route's `openapi` entry and
 * `RESPONSE_SCHEMAS`. A `/v1` route without an entry is still listed, with `x-undocumented: true`,
 * so the document test can name it.
 */
export function buildOpenApi(table: readonly RequestRoute[]): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = { ...RESPONSE_SCHEMAS };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const routes = table.filter((route) => route.path.startsWith('/v1/')).sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of routes) {
    const method = route.method.toLowerCase();
    const info = route.settings.plugins?.openapi;
    const validate = routeValidation(route);
    const operation = info ? describedOperation(info, method, validate, schemas) : { 'x-undocumented': true, responses: {} };
    (paths[route.path] ??= {})[method] = { ...operation, parameters: parameters(method, validate, info) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment service merchant API',
      version: CURRENT_API_VERSION,
      description:
        'The merchant API under /v1. Authenticate with `Authorization: Bearer sk_test_…` (every route but this document). ' +
        'Every POST needs an Idempotency-Key; `Api-Version` selects the version that answers. Errors answer `{error: {code, message, param?, request_id}}`.',
    },
    tags: TAGS.map((name) => ({ name })),
    // Relative to where the document is served: the host that answered GET /v1/openapi.json (the
    // paths carry /v1 themselves). Each deployment has its own host, so none is written in.
    servers: [{ url: '/', description: 'The host serving this document, e.g. http://localhost:4242 for `npm start`' }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: sk_test_… or sk_live_…' } },
    },
  };
}

function describedOperation(info: OperationInfo, method: string, validate: RouteValidation, schemas: Record<string, JsonSchema>): JsonSchema {
  const content = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
  const responses: Record<string, JsonSchema> = {};
  for (const status of [info.success.status, ...(info.success.alsoWith ?? [])]) {
    responses[String(status)] = { description: info.success.description, content: content(info.success.schema) };
  }
  const errors = info.open ? [500] : [...new Set([...GENERIC_ERRORS, ...(info.errors ?? [])])].sort();
  for (const status of errors) responses[String(status)] = { description: ERROR_DESCRIPTIONS[status] ?? 'Error.', content: content('Error') };
  const operation: JsonSchema = {
    operationId: info.operationId,
    summary: info.summary,
    ...(info.description === undefined ? {} : { description: info.description }),
    tags: [info.tag],
    responses,
  };
  if (info.open) operation.security = [];
  if (method === 'post' && info.requestBody && validate.payload) {
    schemas[info.requestBody] = joiToJsonSchema(validate.payload);
    operation.requestBody = { required: true, content: content(info.requestBody) };
  }
  return operation;
}

/** The path and query parameters of a route, from its joi schemas. */
export function routeParameters(validate: RouteValidation): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', validate.params],
    ['query', validate.query],
  ] as const) {
    if (!schema) continue;
    const json = joiToJsonSchema(schema);
    const required = new Set<unknown>(Array.isArray(json.required) ? json.required : []);
    for (const [name, property] of Object.entries(isRecord(json.properties) ? json.properties : {})) {
      list.push({ name, in: where, required: where === 'path' || required.has(name), schema: property });
    }
  }
  return list;
}

function parameters(method: string, validate: RouteValidation, info: OperationInfo | undefined): JsonSchema[] {
  const list = routeParameters(validate);
  if (info?.open) return list;
  list.push({
    name: 'Api-Version',
    in: 'header',
    required: false,
    description: 'The API version that answers; without it, the account’s pinned version.',
    schema: { type: 'string', pattern: API_VERSION_PATTERN.source, examples: [CURRENT_API_VERSION] },
  });
  if (method === 'post') {
    list.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      description: 'The same key and body replay the first answer (with `Idempotent-Replayed: true`).',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY.maxKeyLength },
    });
  }
  return list;
}
