import { base64url } from '../../domain/tokens';
import { CoreError } from '../../errors/core-error';
import type { Clock } from '../../ports/clock.port';
import type { IdempotencyClaim, IdempotencyScope, IdempotencyStore, StoredResponse } from '../../ports/idempotency-store.port';
import type { RandomSource } from '../../ports/random-source.port';
import type { SecretBox } from '../../ports/secret-box.port';
import type { UnitOfWork } from '../../ports/unit-of-work.port';

export const IDEMPOTENCY = {
  /** How long a key is remembered (DECISIONS: 24 hours). */
  retentionMs: 24 * 3600 * 1000,
  /** How long an unfinished request blocks its key before its process is presumed dead. */
  leaseMs: 60 * 1000,
  maxKeyLength: 255,
} as const;

export interface IdempotentRequest {
  readonly scope: IdempotencyScope;
  /** Digest of method, path and canonical body: what makes two requests "the same". */
  readonly fingerprint: string;
  /** The request's work; runs in one transaction with the recording of its answer. */
  readonly perform: () => Promise<StoredResponse>;
  /**
   * False for work that calls a channel: it then runs outside any transaction (holding one across
   * a network call would block the database) and its answer is recorded right after. Such work
   * must be safe to run again after a crash between the two, which attempts and simulations are:
   * the channel is idempotent on the attempt id, and a pending attempt is answered again.
   */
  readonly transactional?: boolean;
  /**
   * The answer to remember for an error `perform` threw, or undefined to forget the key and
   * rethrow (validation errors and failures: a corrected retry may run under the same key).
   */
  readonly refusalToStore: (error: unknown) => StoredResponse | undefined;
}

export interface IdempotentResult {
  readonly response: StoredResponse;
  readonly replayed: boolean;
}

function keyInUse(): CoreError {
  return new CoreError('idempotency_key_in_use', 'conflict', 'A request with this Idempotency-Key is still being processed; retry after it finishes.', {
    param: 'Idempotency-Key',
    retryAfterSeconds: 1,
  });
}

class ClaimLost extends Error {}

/**
 * Marks a stored answer as sealed. Answers recorded before sealing began carry no marker and are
 * replayed as stored; the purge drops them within one retention period.
 */
const SEALED_ANSWER_PREFIX = 'sealed:';

/**
 * Stored answers are sealed because some carry a secret that exists nowhere else: the create
 * answer of a payment intent holds its `checkout_url`, the checkout token in clear, and is
 * replayed for 24 hours. Sealing every answer rather than picking the ones with a secret keeps a
 * new route from leaking by forgetting to opt in; it costs one seal per recorded answer and one
 * open per replay.
 */
function sealAnswer(secrets: SecretBox, response: StoredResponse): StoredResponse {
  return { status: response.status, body: `${SEALED_ANSWER_PREFIX}${secrets.seal(response.body)}` };
}

function openAnswer(secrets: SecretBox, stored: StoredResponse): StoredResponse {
  if (!stored.body.startsWith(SEALED_ANSWER_PREFIX)) return stored;
  return { status: stored.status, body: secrets.open(stored.body.slice(SEALED_ANSWER_PREFIX.length)) };
}

/**
 * Runs a write at most once per idempotency key (DECISIONS, Idempotency): a repeat with the same
 * fingerprint replays the stored answer, another fingerprint is 422 `idempotency_key_reused`, a
 * repeat while the first still runs is 409 `idempotency_key_in_use`. The answer commits in the same
 * transaction as the work, so a process killed half way leaves either both or neither.
 */
export class RunIdempotently {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly secrets: SecretBox,
  ) {}

  async execute(request: IdempotentRequest): Promise<IdempotentResult> {
    const result = await this.store.claim({
      scope: request.scope,
      fingerprint: request.fingerprint,
      token: base64url(this.random.bytes(16)),
      now: this.clock.now(),
      leaseMs: IDEMPOTENCY.leaseMs,
      retentionMs: IDEMPOTENCY.retentionMs,
    });
    if (result.outcome !== 'claimed') {
      if (result.fingerprint !== request.fingerprint) {
        throw new CoreError(
          'idempotency_key_reused',
          'idempotency_mismatch',
          'This Idempotency-Key was used with a different request; use a new key for a new request.',
          { param: 'Idempotency-Key' },
        );
      }
      if (result.outcome === 'in_flight') throw keyInUse();
      return { response: openAnswer(this.secrets, result.response), replayed: true };
    }
    return { response: await this.performClaimed(result.claim, request), replayed: false };
  }

  private async performClaimed(claim: IdempotencyClaim, request: IdempotentRequest): Promise<StoredResponse> {
    try {
      if (request.transactional === false) {
        const response = await request.perform();
        await this.uow.run(() => this.complete(claim, response));
        return response;
      }
      return await this.uow.run(async () => {
        const response = await request.perform();
        await this.complete(claim, response);
        return response;
      });
    } catch (error) {
      if (error instanceof ClaimLost) throw keyInUse();
      const refusal = request.refusalToStore(error);
      if (refusal === undefined) {
        // If even the release fails, the lease runs out and the key frees itself.
        await this.store.release(claim).catch(() => undefined);
        throw error;
      }
      try {
        await this.uow.run(() => this.complete(claim, refusal));
      } catch (completion) {
        if (completion instanceof ClaimLost) throw keyInUse();
        throw completion;
      }
      return refusal;
    }
  }

  private async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
    if (!(await this.store.complete(claim, sealAnswer(this.secrets, response), this.clock.now()))) throw new ClaimLost();
  }
}
