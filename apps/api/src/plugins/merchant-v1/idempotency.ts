import type { Lifecycle, Request, ResponseToolkit, Server } from '@hapi/hapi';
import { CoreError, IDEMPOTENCY, isCoreError, type Digest, type RunIdempotently, type StoredResponse } from '@payments/core';
import stringify from 'safe-stable-stringify';
import type { Idempotency, IdempotentWork } from '../../http/define-route';
import { errorBody, httpStatusOf } from '../../http/error-envelope';
import { header } from '../../http/headers';
import { scopeOf } from './caller';

/** Refusals worth remembering: the request got past validation and began its work. */
const FORGOTTEN_CATEGORIES = new Set(['validation', 'rate_limited', 'unavailable', 'internal', 'authentication']);

/** The Idempotency-Key of a `/v1` POST: present and of a valid length once `requireIdempotencyKey` let the request through. */
export function idempotencyKeyOf(request: Pick<Request, 'headers'>): string {
  return header(request, 'idempotency-key') ?? '';
}

/**
 * Every POST under `/v1` needs an Idempotency-Key (checked after authentication, so a caller
 * without a valid key learns nothing else first). This is the one place its length is checked.
 */
export function requireIdempotencyKey(server: Server): void {
  server.ext('onPostAuth', (request, h) => {
    if (request.method !== 'post' || !request.path.startsWith('/v1/') || !request.auth.credentials?.caller) return h.continue;
    const key = header(request, 'idempotency-key');
    if (key === undefined || key === '') {
      throw new CoreError('idempotency_key_required', 'validation', 'Every POST under /v1 needs an Idempotency-Key header (for example a UUID).', {
        param: 'Idempotency-Key',
      });
    }
    if (key.length > IDEMPOTENCY.maxKeyLength) {
      throw new CoreError('invalid_parameter', 'validation', `Idempotency-Key must be at most ${IDEMPOTENCY.maxKeyLength} characters.`, {
        param: 'Idempotency-Key',
      });
    }
    return h.continue;
  });
}

export interface IdempotentDeps {
  readonly runIdempotently: RunIdempotently;
  readonly digest: Digest;
}

/**
 * Wraps a POST handler so it runs at most once per key: the work and the remembered answer commit
 * in one transaction (unless `transactional` is false); a repeat replays the answer with
 * `Idempotent-Replayed: true`.
 */
export function idempotent(deps: IdempotentDeps, work: IdempotentWork, { transactional }: Idempotency): Lifecycle.Method {
  return async (request: Request, h: ResponseToolkit) => {
    const requestId = request.app.requestId;
    const fingerprint = deps.digest.sha256Hex(`${request.method.toUpperCase()} ${request.path}\n${stringify(request.payload ?? {})}`);
    const { response, replayed } = await deps.runIdempotently.execute({
      scope: { ...scopeOf(request), key: idempotencyKeyOf(request) },
      fingerprint,
      transactional,
      perform: async (): Promise<StoredResponse> => {
        const answer = await work(request, h);
        return { status: answer.status, body: JSON.stringify(answer.body) };
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
