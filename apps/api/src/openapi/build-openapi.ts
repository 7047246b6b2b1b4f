import type { RequestRoute } from '@hapi/hapi';
import { API_VERSION_PATTERN, CURRENT_API_VERSION, IDEMPOTENCY, isRecord, type ApiKeyPermission } from '@payments/core';
import Joi, { type Schema } from 'joi';
import { answerHeaderComponents, answerHeaders } from './answer-headers';
import { CONTENT_DISPOSITION, csvContent, type CsvAnswer } from './csv-answer';
import {
  ERROR_CODE_MEANINGS,
  GENERIC_ERROR_CODES,
  mergeErrorCodes,
  OPEN_ERROR_CODES,
  POST_ERROR_CODES,
  VALIDATED_ERROR_CODES,
  type ErrorCode,
  type ErrorCodes,
  type ErrorStatus,
} from './error-codes';
import { joiToJsonSchema } from './joi-schema';
import { ERROR, includeComponent, ref, type Component, type JsonSchema } from './json-schema';
import { WEBHOOK_HEADER_PARAMETERS, webhookOperations } from './webhooks';

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, JsonSchema>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    headers?: Record<string, JsonSchema>;
    parameters?: Record<string, JsonSchema>;
  };
};

/**
 * What the route table cannot say about a `/v1` route: its name, the rules a caller needs, what it
 * answers on success (with an example) and the error codes it can add to the generic ones. Each
 * route carries its own (`openapi` in its definition); a `/v1` route without one is reported by
 * the document test.
 */
export interface OperationInfo {
  readonly operationId: string;
  readonly summary: string;
  /** The rules a summary cannot hold (Markdown): states, errors and why. */
  readonly description: string;
  /** The group it is listed under; the document lists its groups by name. */
  readonly tag: string;
  /**
   * Success status and the component it answers with (its capability's family, beside its
   * presenter). The example is the component's own (`examples` in its schema) unless this answer
   * shows another state of it.
   */
  readonly success:
    | {
        readonly status: number;
        readonly schema: Component;
        readonly description: string;
        readonly alsoWith?: readonly number[];
        readonly example?: JsonObject;
      }
    | {
        /** A file rather than JSON: its columns (`content` `text/csv`, saved under its Content-Disposition name). */
        readonly status: number;
        readonly csv: CsvAnswer;
        readonly description: string;
      };
  /** The request body: the name of its schema in `components.schemas`, and an example of it. */
  readonly requestBody?: { readonly name: string; readonly example: JsonObject };
  /** Error codes beyond the generic ones (and, on a POST, those of the body and its key), by status. */
  readonly errors?: ErrorCodes;
  /** Open route: no API key. */
  readonly open?: boolean;
}

/** A JSON object, as examples are written. */
export type JsonObject = Readonly<Record<string, unknown>>;

const ERROR_DESCRIPTIONS: Readonly<Record<ErrorStatus, string>> = {
  400: 'The request is refused as sent; nothing changed.',
  401: 'No usable API key.',
  402: 'The channel refused the payment.',
  403: 'This key may not do this.',
  404: 'No such object for this key.',
  409: 'The state of an object, or a request running with the same key, refuses this; nothing changed.',
  413: 'The body is too large.',
  415: 'The body is not JSON.',
  422: 'The Idempotency-Key belongs to another request.',
  429: 'Rate limited.',
  500: 'A fault of the service.',
  503: 'A dependency is unreachable for now.',
};

/** Names of the groups operations are listed under, with what each holds. */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'Payment intents': 'An amount to collect and where its payment stands: created, paid through an attempt, settled by the channel, released to the balance.',
  'Payment attempts': 'One try at a channel: the payer’s credential (a QR payload or a redirect) while pending, then the channel’s outcome.',
  Refunds: 'Money given back to the payer of a paid intent, in whole or in part, through the channel that took it.',
  Disputes: 'A payer’s challenge of a payment, the amount held while it runs, and the evidence the merchant sends.',
  Balance: 'What the ledger holds for the account: pending, available and held for disputes, per currency.',
  Settlements: 'Payouts of the available balance to the account’s bank account, on a schedule or on request.',
  FX: 'Indicative exchange rates and what an amount would come to.',
  Events: 'The log of changes, newest first: the bodies webhooks deliver.',
  Exports: 'Every payment intent, settlement or balance transaction a list’s filters keep, as one CSV file for a spreadsheet or a bookkeeping import.',
  Webhooks: 'Keys to verify webhook signatures with; the deliveries themselves are in `webhooks`.',
  'Test helpers': 'Test mode only: make the channel report an outcome, or move a timer to now, instead of waiting.',
  Meta: 'This document.',
};

export interface RouteValidation {
  params?: Schema;
  query?: Schema;
  payload?: Schema;
}

/** The joi schemas a route validates with (what is not one, a route cannot document). */
export function routeValidation(route: RequestRoute): RouteValidation {
  const validate = route.settings.plugins?.schemas;
  const schema = (value: unknown): Schema | undefined => (Joi.isSchema(value) ? value : undefined);
  return { params: schema(validate?.params), query: schema(validate?.query), payload: schema(validate?.payload) };
}

/**
 * The OpenAPI 3.1 document of `/v1`, made from the live route table: paths, parameters and
 * request bodies from each route's joi schemas; answers from each route's `openapi` entry and the
 * component families its answers belong to; the webhooks from the event types. A `/v1` route
 * without an entry is still listed, with `x-undocumented: true`, so the document test can name it.
 */
export function buildOpenApi(table: readonly RequestRoute[]): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  includeComponent(schemas, ERROR);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const routes = table.filter((route) => route.path.startsWith('/v1/')).sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of routes) {
    const method = route.method.toLowerCase();
    const info = route.settings.plugins?.openapi;
    const validate = routeValidation(route);
    const permission = route.settings.plugins?.permission;
    const operation = info ? describedOperation(info, method, validate, schemas, permission) : { 'x-undocumented': true, responses: {} };
    (paths[route.path] ??= {})[method] = { ...operation, parameters: parameters(method, validate, info) };
  }
  const webhooks = webhookOperations(schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment service merchant API',
      version: CURRENT_API_VERSION,
      description:
        'The merchant API under /v1. Authenticate with `Authorization: Bearer sk_test_…` (every route but this document). ' +
        'A restricted key (`rk_test_…`, `rk_live_…`) reaches only the operations its permissions name: each operation names the one it needs in `x-permission` ' +
        '(`refunds:write`; `write` includes `read`), and a key without it gets 403 `insufficient_permissions`. ' +
        'Every POST needs an Idempotency-Key; `Api-Version` selects the version that answers. Errors answer `{error: {code, message, param?, request_id}}`; ' +
        'each operation lists, under each error status, the codes it can answer. Amounts are integers of minor units. ' +
        'The service calls your endpoints too: `webhooks` lists what it sends, one entry per event type.',
    },
    tags: tagsOf(paths, TAG_DESCRIPTIONS),
    // Relative to where the document is served: the host that answered GET /v1/openapi.json (the
    // paths carry /v1 themselves). Each deployment has its own host, so none is written in.
    servers: [{ url: '/', description: 'The host serving this document, e.g. http://localhost:4242 for `npm start`' }],
    security: [{ apiKey: [] }],
    paths,
    webhooks,
    components: {
      schemas,
      headers: answerHeaderComponents(true),
      parameters: { ...WEBHOOK_HEADER_PARAMETERS },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: a secret key, sk_test_… or sk_live_…, or a restricted key, rk_test_… or rk_live_…',
        },
      },
    },
  };
}

const content = (schema: JsonSchema, example?: unknown): JsonSchema => ({
  'application/json': { schema, ...(example === undefined ? {} : { example }) },
});

/** The sentence an operation's description ends with: the permission a restricted key needs. */
function permissionSentence(permission: ApiKeyPermission): string {
  return `A restricted key needs the permission \`${permission}\` (a secret key has every one); without it the answer is 403 \`insufficient_permissions\`.`;
}

function describedOperation(
  info: OperationInfo,
  method: string,
  validate: RouteValidation,
  schemas: Record<string, JsonSchema>,
  permission: ApiKeyPermission | undefined,
): JsonSchema {
  const post = method === 'post';
  // Every /v1 answer names its version, the open document's too.
  const headers = (status: number, success: boolean) => answerHeaders({ status, success, idempotent: post, versioned: true });
  const responses: Record<string, JsonSchema> = {};
  const { success } = info;
  if ('csv' in success) {
    responses[String(success.status)] = {
      description: success.description,
      headers: { ...headers(success.status, true), 'Content-Disposition': CONTENT_DISPOSITION },
      content: csvContent(success.csv),
    };
  } else {
    const name = includeComponent(schemas, success.schema);
    const example = success.example ?? exampleOf(success.schema);
    for (const status of [success.status, ...(success.alsoWith ?? [])]) {
      responses[String(status)] = {
        description: success.description,
        headers: headers(status, true),
        content: content(ref(name), example),
      };
    }
  }
  // A POST validates its Idempotency-Key even when it takes nothing else.
  const validated = post || [validate.params, validate.query, validate.payload].some((schema) => schema !== undefined);
  const codes = info.open
    ? mergeErrorCodes(OPEN_ERROR_CODES)
    : mergeErrorCodes(validated ? VALIDATED_ERROR_CODES : {}, GENERIC_ERROR_CODES, post ? POST_ERROR_CODES : {}, info.errors ?? {});
  for (const [status, list] of codes) {
    responses[String(status)] = {
      description: errorDescription(status, list),
      headers: headers(status, false),
      content: content(errorSchema(list)),
    };
  }
  const operation: JsonSchema = {
    operationId: info.operationId,
    summary: info.summary,
    description: permission === undefined ? info.description : `${info.description}\n\n${permissionSentence(permission)}`,
    tags: [info.tag],
    responses,
  };
  if (permission !== undefined) operation['x-permission'] = permission;
  if (info.open) operation.security = [];
  if (post && info.requestBody && validate.payload) {
    schemas[info.requestBody.name] = joiToJsonSchema(validate.payload);
    operation.requestBody = { required: true, content: content(ref(info.requestBody.name), info.requestBody.example) };
  }
  return operation;
}

/** The first of a component's own `examples`, if it has one. */
function exampleOf(component: Component): unknown {
  const examples = component.family[component.name].examples;
  return Array.isArray(examples) ? examples[0] : undefined;
}

/** What an error status means, then each code it can carry here and what that code means. */
function errorDescription(status: ErrorStatus, codes: readonly ErrorCode[]): string {
  return [ERROR_DESCRIPTIONS[status], '', ...codes.map((code) => `- \`${code}\`: ${ERROR_CODE_MEANINGS[code]}`)].join('\n');
}

/** The error envelope with `code` narrowed to what this status of this operation can carry. */
function errorSchema(codes: readonly string[]): JsonSchema {
  return {
    allOf: [
      ref(ERROR.name),
      {
        properties: {
          error: {
            description: 'What was refused, and why.',
            properties: { code: { type: 'string', enum: [...codes], description: 'The codes this operation answers with this status.' } },
          },
        },
      },
    ],
  };
}

/** The groups the operations of a document name, by name: each once, with its description. */
export function tagsOf(
  paths: Record<string, Record<string, JsonSchema>>,
  descriptions: Readonly<Record<string, string>>,
): { name: string; description?: string }[] {
  const names = new Set<string>();
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    for (const tag of Array.isArray(operation.tags) ? operation.tags : []) names.add(String(tag));
  }
  return [...names].sort().map((name) => (descriptions[name] === undefined ? { name } : { name, description: descriptions[name] }));
}

/** The path and query parameters of a route, from its joi schemas (a field's description is the parameter's). */
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
      const { description, ...rest } = isRecord(property) ? property : {};
      list.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      });
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
  if (method === 'post') list.push(IDEMPOTENCY_KEY_PARAMETER);
  return list;
}

/** The header of a request that runs once per key. */
export const IDEMPOTENCY_KEY_PARAMETER: JsonSchema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description: 'The same key and body replay the first answer (with `Idempotent-Replayed: true`).',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY.maxKeyLength },
};
