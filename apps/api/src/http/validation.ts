import type { Lifecycle, Request, ResponseToolkit } from '@hapi/hapi';
import { CoreError } from '@payments/core';
import type { Schema, ValidationError, ValidationErrorItem } from 'joi';
import type { Validation } from './define-route';

/**
 * Joi options for every route: report the first problem, name fields without quotes, and never
 * quote the rejected value back (it may be a key or a code pasted into the wrong field). Baked
 * into each route's schemas once, when the route is registered (`validating`).
 */
const VALIDATION_OPTIONS = {
  abortEarly: true,
  errors: { wrap: { label: false } },
  messages: {
    'string.pattern.base': '{{#label}} does not have the expected format',
    'string.pattern.name': '{{#label}} must be a {{#name}}',
    'string.pattern.invert.base': '{{#label}} does not have the expected format',
    'string.pattern.invert.name': '{{#label}} does not have the expected format',
    'any.only': '{{#label}} must be one of {{#valids}}',
  },
} as const;

/**
 * Body fields whose every refusal has a code of its own in the API: `return_url` (payment
 * intents) and `url` (webhook endpoints, the only body with that field).
 */
const FIELD_ERROR_CODES: Readonly<Record<string, string>> = { return_url: 'invalid_return_url', url: 'invalid_url' };

/**
 * Turns a joi failure into 400 `invalid_parameter` naming the offending field in `param`
 * (`amount`, `metadata.order`, `limit`, `idempotency-key`). An entry of a list is reported as the
 * list (`enabled_events`), and a body that is not an object at all, where no field is at fault,
 * is `invalid_request`.
 */
function refusal(error: ValidationError): CoreError {
  const detail: ValidationErrorItem | undefined = error.details[0];
  if (!detail || detail.path.length === 0) return new CoreError('invalid_request', 'validation', detail?.message ?? 'The request is invalid.');
  const listIndex = detail.path.findIndex((segment) => typeof segment === 'number');
  const param = (listIndex > 0 ? detail.path.slice(0, listIndex) : detail.path).join('.');
  // Own keys only: a field named `toString` must not find Object.prototype's.
  const code = Object.hasOwn(FIELD_ERROR_CODES, param) ? FIELD_ERROR_CODES[param] : 'invalid_parameter';
  const message = code === 'invalid_url' ? 'url must be an absolute https URL on a public host name.' : detail.message;
  return new CoreError(code, 'validation', message, { param });
}

/** The parts of a request a route validates, in the order they are checked. */
const SOURCES = ['params', 'query', 'payload'] as const;

/**
 * The route's handler behind one validation pass: params, query, then the body, each against its
 * schema compiled once here with the options above (joi caches the merged options on the schema),
 * synchronously, replacing each with its validated value. The first failure is the request's
 * refusal, before the handler (and so before an idempotency key is claimed).
 *
 * Hapi's own `validate` is not used: it merges the route's options with a context object and
 * runs joi's asynchronous entry for each part of every request, which cost more than the check.
 */
export function validating(validate: Validation | undefined, handler: Lifecycle.Method): Lifecycle.Method {
  const checks = SOURCES.flatMap((source) => {
    const schema: Schema | undefined = validate?.[source];
    return schema ? [{ source, schema: schema.prefs(VALIDATION_OPTIONS) }] : [];
  });
  if (checks.length === 0) return handler;
  return (request: Request, h: ResponseToolkit) => {
    for (const { source, schema } of checks) {
      // A GET's body is never read, as Hapi never validated one.
      if (source === 'payload' && request.method === 'get') continue;
      const { value, error } = schema.validate(request[source]) as { value: unknown; error?: ValidationError };
      if (error) throw refusal(error);
      // Hapi's typings make the parsed parts read-only; replacing them is what its own validation does.
      Reflect.set(request, source, value);
    }
    return handler.call(null, request, h);
  };
}
