import type { Request, ResponseToolkit } from '@hapi/hapi';
import { CoreError } from '@payments/core';
import type { ValidationErrorItem } from 'joi';

interface JoiFailure extends Error {
  details?: ValidationErrorItem[];
}

/**
 * Joi options for every route: report the first problem, name fields without quotes, and never
 * quote the rejected value back (it may be a key or a code pasted into the wrong field).
 */
export const VALIDATION_OPTIONS = {
  abortEarly: true,
  errors: { wrap: { label: false } },
  messages: {
    'string.pattern.base': '{{#label}} does not have the expected format',
    'string.pattern.name': '{{#label}} must be a {{#name}}',
    'any.only': '{{#label}} must be one of {{#valids}}',
  },
} as const;

/** Fields whose every refusal has a code of its own in the spec. */
const FIELD_ERROR_CODES: Readonly<Record<string, string>> = { return_url: 'invalid_return_url' };

/**
 * Turns a joi failure into 400 `invalid_parameter` naming the offending field in `param`
 * (`amount`, `metadata.order`, `limit`, `idempotency-key`).
 */
export function validationFailAction(_request: Request, _h: ResponseToolkit, error?: Error): never {
  const detail = (error as JoiFailure | undefined)?.details?.[0];
  const param = detail && detail.path.length > 0 ? detail.path.join('.') : undefined;
  const code = (param !== undefined && FIELD_ERROR_CODES[param]) || 'invalid_parameter';
  throw new CoreError(code, 'validation', detail?.message ?? 'The request is invalid.', param === undefined ? {} : { param });
}
