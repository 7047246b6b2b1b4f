import { API_VERSION_PATTERN, CURRENT_API_VERSION } from '@payments/core';
import type { JsonSchema } from './json-schema';

/** The headers the service sets on its answers (`components.headers` of both documents). */
export const ANSWER_HEADERS: Readonly<Record<string, JsonSchema>> = {
  RequestId: {
    description: 'The id of this request, also in `error.request_id` of an error. Quote it when asking about a request; the service logs it with every line.',
    schema: { type: 'string', pattern: '^req_[0-9A-Za-z]{22}$', examples: ['req_7FqR2mXcW9sLp4TbK1vYzA'] },
  },
  ApiVersion: {
    description: 'The API version that answered: the `Api-Version` the request named, else the version the account is pinned to.',
    schema: { type: 'string', pattern: API_VERSION_PATTERN.source, examples: [CURRENT_API_VERSION] },
  },
  IdempotentReplayed: {
    description:
      'Present, `true`, when this is the stored answer of an earlier request with the same Idempotency-Key and body, replayed byte for byte ' +
      '(its `request_id` is the first request’s; the Request-Id header names this one). Absent on the first answer.',
    schema: { type: 'string', enum: ['true'] },
  },
  RetryAfter: {
    description: 'Whole seconds to wait before trying again (with the same Idempotency-Key, for a POST).',
    schema: { type: 'integer', minimum: 1, examples: [2] },
  },
};

/** The headers of `components.headers`: those of every answer, and Api-Version where answers are versioned. */
export function answerHeaderComponents(versioned: boolean): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(ANSWER_HEADERS).filter(([name]) => versioned || name !== 'ApiVersion'));
}

const header = (name: keyof typeof ANSWER_HEADERS): JsonSchema => ({ $ref: `#/components/headers/${name}` });

/** Error statuses whose answer a POST stores and replays: refusals the work itself made. */
const REPLAYED_ERRORS = new Set([402, 403, 404, 409]);

/** Statuses sent with Retry-After: rate limits, outages, and (on POSTs) a key still in use. */
function retriesAfter(status: number, post: boolean): boolean {
  return status === 429 || status === 503 || (post && status === 409);
}

export interface AnswerKind {
  readonly status: number;
  readonly success: boolean;
  /** Runs once per Idempotency-Key, so its answers may be replays. */
  readonly idempotent: boolean;
  /** Answers name their API version (the merchant API). */
  readonly versioned: boolean;
}

/** The headers one answer of an operation may carry. */
export function answerHeaders({ status, success, idempotent, versioned }: AnswerKind): Record<string, JsonSchema> {
  return {
    'Request-Id': header('RequestId'),
    ...(versioned ? { 'Api-Version': header('ApiVersion') } : {}),
    ...(idempotent && (success || REPLAYED_ERRORS.has(status)) ? { 'Idempotent-Replayed': header('IdempotentReplayed') } : {}),
    ...(retriesAfter(status, idempotent) ? { 'Retry-After': header('RetryAfter') } : {}),
  };
}
