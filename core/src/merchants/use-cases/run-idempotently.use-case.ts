import type { Clock, RandomSource, Recovery, SecretBox, UnitOfWork } from '../../common';
import { base64url, CoreError } from '../../common';
import type { ClaimRequest, IdempotencyClaim, IdempotencyScope, IdempotencyStore, KnownKey, StoredResponse } from '../ports/idempotency-store.port';

export const IDEMPOTENCY = {
  /** How long a key is remembered: 24 hours. */
  retentionMs: 24 * 3600 * 1000,
  /** How long an unfinished request blocks its key before its process is presumed dead. */
  leaseMs: 60 * 1000,
  maxKeyLength: 255,
} as const;

export interface IdempotentRequest {
  readonly scope: IdempotencyScope;
  /** Digest of method, path and canonical body: what makes two requests "the same". */
  readonly fingerprint: string;
  /**
   * The request's work; runs in one transaction with the claim of its key and the recording of its
   * answer. `recovery` names the object an earlier try bound to the key (resume with it) and binds
   * the one this try makes.
   */
  readonly perform: (recovery: Recovery) => Promise<StoredResponse>;
  /**
   * False for work that calls a channel: its claim then commits first, the work runs outside any
   * transaction (holding one across a network call would block the database) and its answer is
   * recorded right after. Such work has a recovery point: the transaction that makes its object
   * binds it to the key (`recovery.bind`), and from that commit on the key is never forgotten; a
   * retry after any failure (or after its process died and the lease ran out) gets that object in
   * `recovery.resume` and finishes it or answers it, never making a second one.
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

function keyReused(): CoreError {
  return new CoreError(
    'idempotency_key_reused',
    'idempotency_mismatch',
    'This Idempotency-Key was used with a different request; use a new key for a new request.',
    {
      param: 'Idempotency-Key',
    },
  );
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

function resumeOf(recoveryPoint: string | undefined): { resume?: string } {
  return recoveryPoint === undefined ? {} : { resume: recoveryPoint };
}

/** A collision-free name of a key's scope (a separator could also appear inside a key). */
function scopeName(scope: IdempotencyScope): string {
  return JSON.stringify([scope.merchantId, scope.mode, scope.caller, scope.key]);
}
export interface RunIdempotentlyDeps {
  readonly store: IdempotencyStore;
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly secrets: SecretBox;
}

/**
 * Runs a write at most once per idempotency key: a repeat with the same fingerprint replays the
 * stored answer, another fingerprint is 422 `idempotency_key_reused`, a repeat while the first
 * still runs is 409 `idempotency_key_in_use`.
 *
 * For storage-only work the claim of the key, the work and its answer are one transaction: one
 * durable commit per request, and a process killed half way leaves either all or nothing. A key
 * is first read without writing, so a repeat of a finished request (a client's retry) writes
 * nothing. Requests for a key this process is already running are answered from memory; one
 * running in another process is seen by the claim, which never waits for it.
 *
 * Work that calls a channel runs between transactions, with recovery points (Brandur Leach's
 * "atomic phases"): its claim commits first; the transaction that makes its object binds it to the
 * key; a failure before that commit forgets the key, a failure after it keeps the key resumable,
 * and the retry resumes with the object.
 */
export class RunIdempotently {
  /** Keys this process is running now, with their requests' fingerprints. */
  private readonly running = new Map<string, string>();

  constructor(private readonly deps: RunIdempotentlyDeps) {}

  async execute(request: IdempotentRequest): Promise<IdempotentResult> {
    const name = scopeName(request.scope);
    this.refuseIfRunningHere(name, request);
    const known = await this.deps.store.find(request.scope, this.deps.clock.now());
    // A resumable key is claimed (taken over) by a retry of its own request.
    if (known && !(known.outcome === 'resumable' && known.fingerprint === request.fingerprint)) return this.answerKnown(known, request);
    // Another request of this process may have found the key free during our read.
    this.refuseIfRunningHere(name, request);
    this.running.set(name, request.fingerprint);
    try {
      return request.transactional === false ? await this.runApart(request) : await this.runTogether(request);
    } finally {
      this.running.delete(name);
    }
  }

  /** A key is marked running only once it was found free, so repeats of a finished key all replay. */
  private refuseIfRunningHere(name: string, request: IdempotentRequest): void {
    const runningFingerprint = this.running.get(name);
    if (runningFingerprint !== undefined) throw runningFingerprint === request.fingerprint ? keyInUse() : keyReused();
  }

  private answerKnown(known: KnownKey, request: IdempotentRequest): IdempotentResult {
    if (known.fingerprint !== undefined && known.fingerprint !== request.fingerprint) throw keyReused();
    // Resumable with our fingerprint is only answered here after another claim took it first.
    if (known.outcome === 'in_flight' || known.outcome === 'resumable') throw keyInUse();
    return { response: openAnswer(this.deps.secrets, known.response), replayed: true };
  }

  private claimRequest(request: IdempotentRequest): ClaimRequest {
    return {
      scope: request.scope,
      fingerprint: request.fingerprint,
      token: base64url(this.deps.random.bytes(16)),
      now: this.deps.clock.now(),
      leaseMs: IDEMPOTENCY.leaseMs,
      retentionMs: IDEMPOTENCY.retentionMs,
    };
  }

  /**
   * Claims the key and records `respond`'s answer in one transaction; a key found taken meanwhile
   * is answered as it stands. A failure rolls the claim back with everything else.
   */
  private async claimAndRecord(request: IdempotentRequest, respond: (recovery: Recovery) => Promise<StoredResponse>): Promise<IdempotentResult> {
    const outcome = await this.deps.uow.run(async (transaction): Promise<KnownKey | StoredResponse> => {
      const self = transaction.bind(this);
      const claimed = await self.deps.store.claim(self.claimRequest(request));
      if (claimed.outcome !== 'claimed') return claimed;
      // The work and its answer commit together: there is nothing between them to recover from.
      const response = await respond({ ...resumeOf(claimed.recoveryPoint), bind: () => Promise.resolve(), transaction });
      await self.complete(claimed.claim, response);
      return response;
    });
    return 'outcome' in outcome ? this.answerKnown(outcome, request) : { response: outcome, replayed: false };
  }

  private async runTogether(request: IdempotentRequest): Promise<IdempotentResult> {
    try {
      return await this.claimAndRecord(request, request.perform);
    } catch (error) {
      // The claim is ours within the transaction, so this means the storage broke its promise.
      if (error instanceof ClaimLost) throw keyInUse();
      // The rollback took the claim with it: forgetting the key needs nothing more.
      const refusal = request.refusalToStore(error);
      if (refusal === undefined) throw error;
      return this.claimAndRecord(request, () => Promise.resolve(refusal));
    }
  }

  /** Work outside a transaction: its claim commits first, so a concurrent repeat sees it. */
  private async runApart(request: IdempotentRequest): Promise<IdempotentResult> {
    const result = await this.deps.store.claim(this.claimRequest(request));
    if (result.outcome !== 'claimed') return this.answerKnown(result, request);
    return { response: await this.performClaimed(result.claim, request, result.recoveryPoint), replayed: false };
  }

  private async performClaimed(claim: IdempotencyClaim, request: IdempotentRequest, recoveryPoint: string | undefined): Promise<StoredResponse> {
    const recovery: Recovery = {
      ...resumeOf(recoveryPoint),
      bind: async (id, transaction) => {
        if (!(await transaction.bind(this.deps.store).bind(claim, id))) throw new ClaimLost();
      },
    };
    try {
      const response = await request.perform(recovery);
      await this.deps.uow.run((transaction) => transaction.bind(this).complete(claim, response));
      return response;
    } catch (error) {
      if (error instanceof ClaimLost) throw keyInUse();
      const refusal = request.refusalToStore(error);
      if (refusal === undefined) {
        // Forgets the key, unless a recovery point committed: then the store keeps it, its lease
        // dropped, for the retry to resume. If even the release fails, the lease runs out.
        await this.deps.store.release(claim).catch(() => undefined);
        throw error;
      }
      try {
        await this.deps.uow.run((transaction) => transaction.bind(this).complete(claim, refusal));
      } catch (completion) {
        if (completion instanceof ClaimLost) throw keyInUse();
        // The refusal was not stored: forget the key (or keep it resumable, as above) so that the
        // retry is answered now, not refused as in use until the lease runs out.
        await this.deps.store.release(claim).catch(() => undefined);
        throw completion;
      }
      return refusal;
    }
  }

  private async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
    if (!(await this.deps.store.complete(claim, sealAnswer(this.deps.secrets, response), this.deps.clock.now()))) throw new ClaimLost();
  }
}
