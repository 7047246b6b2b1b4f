import type { Lifecycle, Request, ResponseToolkit } from '@hapi/hapi';
import {
  CoreError,
  ID_FORMATS,
  IDEMPOTENCY,
  isCoreError,
  type Digest,
  type IdempotencyScope,
  type Recovery,
  type RunIdempotently,
  type StoredResponse,
} from '@payments/core';
import stringify from 'safe-stable-stringify';
import { exactJson } from './exact-json';
import type { Idempotency, IdempotentWork } from './define-route';
import { errorBody, httpStatusOf } from './error-envelope';
import { header } from './headers';

/** Refusals worth remembering: the request got past validation and began its work. */
const FORGOTTEN_CATEGORIES = new Set(['validation', 'rate_limited', 'unavailable', 'internal', 'authentication']);

/** The request's Idempotency-Key: present and of a valid length once `checkIdempotencyKey` let the request through. */
export function idempotencyKeyOf(request: Pick<Request, 'headers'>): string {
  return header(request, 'idempotency-key') ?? '';
}

/**
 * Throws 400 `idempotency_key_required` without an Idempotency-Key, 400 `invalid_parameter` for
 * one over 255 characters. `needs` says which requests need one, for the message.
 */
export function checkIdempotencyKey(request: Pick<Request, 'headers'>, needs: string): void {
  const key = header(request, 'idempotency-key');
  if (key === undefined || key === '') {
    throw new CoreError('idempotency_key_required', 'validation', `${needs} needs an Idempotency-Key header (for example a UUID).`, {
      param: 'Idempotency-Key',
    });
  }
  if (key.length > IDEMPOTENCY.maxKeyLength) {
    throw new CoreError('invalid_parameter', 'validation', `Idempotency-Key must be at most ${IDEMPOTENCY.maxKeyLength} characters.`, {
      param: 'Idempotency-Key',
    });
  }
}

export interface IdempotentDeps {
  readonly runIdempotently: RunIdempotently;
  readonly digest: Digest;
}

/** Whose keys a request's key is among: its merchant, mode and caller. */
export type KeyOwner = (request: Request) => Omit<IdempotencyScope, 'key'>;

/**
 * The handler's recovery: a route that resumes from an object binds only objects of that kind
 * (a programming error otherwise, caught by the first test that runs it); others bind nothing.
 */
function recoveryFor(idempotency: Idempotency, recovery: Recovery): Recovery {
  if (idempotency.transactional) return recovery;
  const { resumes } = idempotency;
  const prefix = resumes === 'channel' || resumes === 'settlement' ? undefined : ID_FORMATS[resumes].prefix;
  return {
    ...recovery,
    bind: (id, transaction) => {
      if (prefix === undefined || !id.startsWith(prefix)) throw new Error(`A route that resumes from ${resumes} cannot bind ${id} to its key.`);
      return recovery.bind(id, transaction);
    },
  };
}

/**
 * Wraps a POST handler so it runs at most once per key of `ownerOf(request)`: the work and the
 * remembered answer commit in one transaction (unless `transactional` is false: then the handler
 * binds its object to the key and resumes with it, see `Resumption`); a repeat replays the answer
 * with `Idempotent-Replayed: true`.
 */
export function idempotent(deps: IdempotentDeps, work: IdempotentWork, idempotency: Idempotency, ownerOf: KeyOwner): Lifecycle.Method {
  return async (request: Request, h: ResponseToolkit) => {
    const requestId = request.app.requestId;
    const fingerprint = deps.digest.sha256Hex(`${request.method.toUpperCase()} ${request.path}\n${stringify(request.payload ?? {})}`);
    const { response, replayed } = await deps.runIdempotently.execute({
      scope: { ...ownerOf(request), key: idempotencyKeyOf(request) },
      fingerprint,
      transactional: idempotency.transactional,
      perform: async (recovery): Promise<StoredResponse> => {
        const answer = await work(request, h, recoveryFor(idempotency, recovery));
        // Exact: an answer may carry BigInt amounts (a settlement's summary), written as their digits.
        return { status: answer.status, body: exactJson(answer.body) };
      },
      refusalToStore: (error): StoredResponse | undefined => {
        if (!isCoreError(error) || FORGOTTEN_CATEGORIES.has(error.category)) return undefined;
        return { status: httpStatusOf(error), body: JSON.stringify(errorBody(error, requestId)) };
      },
    });
    const answer = h.response(response.body).code(response.status).type('application/json; charset=utf-8');
    if (replayed) answer.header('Idempotent-Replayed', 'true');
    return answer;
  };
}
