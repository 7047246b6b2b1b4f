import type { Request, ResponseToolkit } from '@hapi/hapi';
import { CoreError } from '@payments/core';
import Joi, { type ValidationErrorItem } from 'joi';

/** A compiled message template: joi's typings give it as `any`, and only joi reads it. */
const template = (source: string): unknown => Joi.expression(source);

/**
 * Joi options for every route: report the first problem, name fields without quotes, and never
 * quote the rejected value back (it may be a key or a code pasted into the wrong field).
 *
 * The messages are compiled templates, made once here: Hapi hands these options to joi on every
 * validation, and joi compiles message strings (template and reference parsing) on each call but
 * reuses templates as they are; as strings they were a few per cent of every request's CPU.
 */
export const VALIDATION_OPTIONS = {
  abortEarly: true,
  errors: { wrap: { label: false } },
  messages: {
    'string.pattern.base': template('{{#label}} does not have the expected format'),
    'string.pattern.name': template('{{#label}} must be a {{#name}}'),
    'string.pattern.invert.base': template('{{#label}} does not have the expected format'),
    'string.pattern.invert.name': template('{{#label}} does not have the expected format'),
    'any.only': template('{{#label}} must be one of {{#valids}}'),
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
export function validationFailAction(_request: Request, _h: ResponseToolkit, error?: Error): never {
  // Hapi hands over joi's own ValidationError (made a Boom in place).
  const detail: ValidationErrorItem | undefined = Joi.isError(error) ? error.details[0] : undefined;
  if (!detail || detail.path.length === 0) throw new CoreError('invalid_request', 'validation', detail?.message ?? 'The request is invalid.');
  const listIndex = detail.path.findIndex((segment) => typeof segment === 'number');
  const param = (listIndex > 0 ? detail.path.slice(0, listIndex) : detail.path).join('.');
  // Own keys only: a field named `toString` must not find Object.prototype's.
  const code = Object.hasOwn(FIELD_ERROR_CODES, param) ? FIELD_ERROR_CODES[param] : 'invalid_parameter';
  const message = code === 'invalid_url' ? 'url must be an absolute https URL on a public host name.' : detail.message;
  throw new CoreError(code, 'validation', message, { param });
}
