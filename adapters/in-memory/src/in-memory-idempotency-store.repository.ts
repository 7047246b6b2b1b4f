import type { ClaimRequest, ClaimResult, IdempotencyClaim, IdempotencyScope, IdempotencyStore, KnownKey, StoredResponse } from '@payments/core';
import type { IdempotencyRecord, InMemoryStore } from './in-memory-store';

/** A collision-free map key (a separator character could also appear inside a key). */
function keyOf(scope: IdempotencyScope): string {
  return JSON.stringify([scope.merchantId, scope.mode, scope.caller, scope.key]);
}

/** The SQL store's rules, decided in one synchronous step so concurrent claims cannot interleave. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  constructor(private readonly store: InMemoryStore) {}

  find(scope: IdempotencyScope, now: Date): Promise<KnownKey | undefined> {
    return this.store.atomic(() => this.known(keyOf(scope), now.getTime()));
  }

  private known(key: string, now: number): KnownKey | undefined {
    const existing = this.store.tables.idempotency.get(key);
    if (!existing || existing.expiresAt <= now) return undefined;
    if (existing.state === 'completed' && existing.response) {
      return { outcome: 'completed', fingerprint: existing.fingerprint, response: { ...existing.response } };
    }
    if (existing.lockedUntil !== undefined && existing.lockedUntil > now) return { outcome: 'in_flight', fingerprint: existing.fingerprint };
    if (existing.recoveryPoint !== undefined) return { outcome: 'resumable', fingerprint: existing.fingerprint };
    return undefined;
  }

  claim(request: ClaimRequest): Promise<ClaimResult> {
    return this.store.atomic((): ClaimResult => {
      const key = keyOf(request.scope);
      const now = request.now.getTime();
      const known = this.known(key, now);
      if (known && (known.outcome !== 'resumable' || known.fingerprint !== request.fingerprint)) return known;
      // Unknown, forgotten after retention, abandoned by a claim whose lease ran out, or resumable.
      const recoveryPoint = known ? this.store.tables.idempotency.get(key)?.recoveryPoint : undefined;
      this.store.tables.idempotency.set(key, {
        fingerprint: request.fingerprint,
        token: request.token,
        state: 'in_flight',
        lockedUntil: now + request.leaseMs,
        ...(recoveryPoint === undefined ? {} : { recoveryPoint }),
        createdAt: now,
        expiresAt: now + request.retentionMs,
      });
      const claim = { scope: request.scope, fingerprint: request.fingerprint, token: request.token };
      return recoveryPoint === undefined ? { outcome: 'claimed', claim } : { outcome: 'claimed', claim, recoveryPoint };
    });
  }

  complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
    return this.store.atomic(() => {
      const key = keyOf(claim.scope);
      const record = this.store.tables.idempotency.get(key);
      if (!record || record.token !== claim.token || record.state !== 'in_flight') return false;
      const completed: IdempotencyRecord = {
        fingerprint: record.fingerprint,
        token: record.token,
        state: 'completed',
        response: { status: response.status, body: response.body },
        ...(record.recoveryPoint === undefined ? {} : { recoveryPoint: record.recoveryPoint }),
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
      };
      this.store.tables.idempotency.set(key, completed);
      return true;
    });
  }

  bind(claim: IdempotencyClaim, recoveryPoint: string): Promise<boolean> {
    return this.store.atomic(() => {
      const key = keyOf(claim.scope);
      const record = this.store.tables.idempotency.get(key);
      if (!record || record.token !== claim.token || record.state !== 'in_flight') return false;
      this.store.tables.idempotency.set(key, { ...record, recoveryPoint });
      return true;
    });
  }

  release(claim: IdempotencyClaim): Promise<void> {
    return this.store.atomic(() => {
      const key = keyOf(claim.scope);
      const record = this.store.tables.idempotency.get(key);
      if (!record || record.token !== claim.token || record.state !== 'in_flight') return;
      // A bound key is never forgotten: it loses its lease, so a retry resumes at once.
      if (record.recoveryPoint === undefined) this.store.tables.idempotency.delete(key);
      else this.store.tables.idempotency.set(key, { ...record, lockedUntil: undefined });
    });
  }

  purgeExpired(now: Date): Promise<number> {
    return this.store.atomic(() => {
      let purged = 0;
      for (const [key, record] of this.store.tables.idempotency) {
        if (record.expiresAt <= now.getTime()) {
          this.store.tables.idempotency.delete(key);
          purged += 1;
        }
      }
      return purged;
    });
  }
}
