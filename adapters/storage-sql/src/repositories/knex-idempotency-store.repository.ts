import {
  CoreError,
  type ClaimRequest,
  type ClaimResult,
  type IdempotencyClaim,
  type IdempotencyScope,
  type IdempotencyStore,
  type StoredResponse,
} from '@payments/core';
import type { KnexContext } from '../knex-context';
import { toNumber, type BigIntValue } from '../mapping/column-values';
import { isDuplicateKeyError } from '../sql-errors';

interface IdempotencyRow {
  merchant_id: string;
  mode: string;
  idem_key: string;
  fingerprint: string;
  token: string;
  state: 'in_flight' | 'completed';
  locked_until: BigIntValue | null;
  response_status: number | null;
  response_body: string | null;
  created_at: BigIntValue;
  expires_at: BigIntValue;
}

/**
 * Each round either settles the outcome or observes that another caller changed the row between
 * our statements; a handful of rounds is plenty, more means something is badly wrong.
 */
const MAX_CLAIM_ROUNDS = 8;

function keyColumns(scope: IdempotencyScope): Pick<IdempotencyRow, 'merchant_id' | 'mode' | 'idem_key'> {
  return { merchant_id: scope.merchantId, mode: scope.mode, idem_key: scope.key };
}

/**
 * Claims are decided by the primary key (merchant, mode, key) and by compare-and-set on the
 * claim token, never by read-then-write, so concurrent requests on any number of processes get
 * exactly one owner. Claims run outside the request's transaction; `complete` runs inside it.
 */
export class KnexIdempotencyStore implements IdempotencyStore {
  constructor(private readonly context: KnexContext) {}

  private table() {
    return this.context.db()<IdempotencyRow>('idempotency_keys');
  }

  async claim(request: ClaimRequest): Promise<ClaimResult> {
    const key = keyColumns(request.scope);
    const now = request.now.getTime();
    const claimed: ClaimResult = {
      outcome: 'claimed',
      claim: { scope: request.scope, fingerprint: request.fingerprint, token: request.token },
    };
    const fresh = {
      fingerprint: request.fingerprint,
      token: request.token,
      locked_until: now + request.leaseMs,
      created_at: now,
      expires_at: now + request.retentionMs,
    };
    for (let round = 0; round < MAX_CLAIM_ROUNDS; round += 1) {
      try {
        await this.table().insert({ ...key, ...fresh, state: 'in_flight', response_status: null, response_body: null });
        return claimed;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      const row = await this.table().where(key).first();
      if (row === undefined) continue; // released or purged since our insert: try again
      if (toNumber(row.expires_at) <= now) {
        // Forgotten: delete only the row we looked at, so a concurrent fresh claim survives.
        await this.table().where({ ...key, token: row.token }).delete();
        continue;
      }
      if (row.state === 'completed') {
        return {
          outcome: 'completed',
          fingerprint: row.fingerprint,
          response: { status: row.response_status ?? 500, body: row.response_body ?? '' },
        };
      }
      if (row.locked_until !== null && toNumber(row.locked_until) > now) {
        return { outcome: 'in_flight', fingerprint: row.fingerprint };
      }
      // The owner's lease ran out: its process died before committing anything (the answer
      // commits with the work), so the key is free. Take it only if nobody else just did.
      const taken = await this.table()
        .where({ ...key, token: row.token, state: 'in_flight' })
        .update(fresh);
      if (taken === 1) return claimed;
    }
    throw new CoreError('api_error', 'unavailable', 'The idempotency key is under heavy contention; retry shortly.', {
      retryAfterSeconds: 1,
    });
  }

  async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
    const changed = await this.table()
      .where({ ...keyColumns(claim.scope), token: claim.token, state: 'in_flight' })
      .update({ state: 'completed', response_status: response.status, response_body: response.body, locked_until: null });
    return changed === 1;
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    await this.table()
      .where({ ...keyColumns(claim.scope), token: claim.token, state: 'in_flight' })
      .delete();
  }

  async purgeExpired(now: Date): Promise<number> {
    return this.table().where('expires_at', '<=', now.getTime()).delete();
  }
}
