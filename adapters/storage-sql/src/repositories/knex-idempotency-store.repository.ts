import {
  CoreError,
  IDEMPOTENCY,
  type ClaimRequest,
  type ClaimResult,
  type IdempotencyClaim,
  type IdempotencyScope,
  type IdempotencyStore,
  type KnownKey,
  type StoredResponse,
} from '@payments/core';
import { dialectOf, mysqlFlavourOf, withoutLockWait } from '../dialect';
import { KnexTable } from '../knex-context';
import { insertText } from '../sql-statements';
import { toNumber, type BigIntValue } from '../mapping/column-values';
import { isDatabaseUnavailableError, isDuplicateKeyError, isLockWaitTimeout } from '../sql-errors';

interface IdempotencyRow {
  merchant_id: string;
  mode: string;
  caller: string;
  idem_key: string;
  fingerprint: string;
  token: string;
  state: 'in_flight' | 'completed';
  locked_until: BigIntValue | null;
  response_status: number | null;
  response_body: string | null;
  /** The object the request bound to its key (a refund, an attempt …): where a retry resumes. */
  recovery_point: string | null;
  created_at: BigIntValue;
  expires_at: BigIntValue;
}

/**
 * Each round either settles the outcome or observes that another caller changed the row between
 * our statements; a handful of rounds is plenty, more means something is badly wrong.
 */
const MAX_CLAIM_ROUNDS = 8;

/** How long a failed release keeps being retried: the claim's lease, after which it frees itself. */
const RELEASE_RETRY_WINDOW_MS = IDEMPOTENCY.leaseMs;
const RELEASE_RETRY_MAX_DELAY_MS = 2_000;

function keyColumns(scope: IdempotencyScope): Pick<IdempotencyRow, 'merchant_id' | 'mode' | 'caller' | 'idem_key'> {
  return { merchant_id: scope.merchantId, mode: scope.mode, caller: scope.caller, idem_key: scope.key };
}

/** What `find` and a lost INSERT read: the row without the key columns the caller already has. */
const READ_COLUMNS = ['fingerprint', 'token', 'state', 'locked_until', 'response_status', 'response_body', 'recovery_point', 'expires_at'] as const;
type ReadRow = Pick<IdempotencyRow, (typeof READ_COLUMNS)[number]>;
/** Every POST reads its key first: written out once rather than compiled per request. */
const FIND_KEY = `select ${READ_COLUMNS.map((column) => `\`${column}\``).join(', ')} from \`idempotency_keys\` where \`merchant_id\` = ? and \`mode\` = ? and \`caller\` = ? and \`idem_key\` = ? limit 1`;

/** Every POST that ran stores its answer: written out once rather than compiled per request. */
const COMPLETE_CLAIM =
  "update `idempotency_keys` set `state` = 'completed', `response_status` = ?, `response_body` = ?, `locked_until` = null" +
  " where `merchant_id` = ? and `mode` = ? and `caller` = ? and `idem_key` = ? and `token` = ? and `state` = 'in_flight'";

/** The row as seen at `now`: its answer, in flight, resumable, or undefined when it may be claimed. */
function knownOf(row: ReadRow, now: number): KnownKey | undefined {
  if (toNumber(row.expires_at) <= now) return undefined;
  if (row.state === 'completed') {
    return { outcome: 'completed', fingerprint: row.fingerprint, response: { status: row.response_status ?? 500, body: row.response_body ?? '' } };
  }
  if (row.locked_until !== null && toNumber(row.locked_until) > now) return { outcome: 'in_flight', fingerprint: row.fingerprint };
  if (row.recovery_point !== null) return { outcome: 'resumable', fingerprint: row.fingerprint };
  return undefined;
}

/**
 * Claims are decided by the primary key (merchant, mode, caller, key) and by compare-and-set on the
 * claim token, never by read-then-write, so concurrent requests on any number of processes get
 * exactly one owner. A claim made inside the request's transaction commits with its work and
 * answer (one durable commit per request); its INSERT never waits for another transaction's
 * uncommitted claim of the same key, it reports it in flight.
 */
export class KnexIdempotencyStore extends KnexTable<IdempotencyRow> implements IdempotencyStore {
  protected readonly tableName = 'idempotency_keys';

  async claim(request: ClaimRequest): Promise<ClaimResult> {
    try {
      // Outside a transaction its statements commit one by one, and a cluster may still refuse
      // one (another node inserted the same key first: a certification failure): run again, it
      // finds that node's claim and answers from it.
      return await this.context.retrying(() => this.claimOnce(request));
    } catch (error) {
      // The connection died after our INSERT or take-over may have landed: the row would hold our
      // token, which nobody else knows, for the whole lease. Free it once the database is back.
      if (isDatabaseUnavailableError(error))
        this.releaseLater({ scope: request.scope, fingerprint: request.fingerprint, token: request.token }, Date.now() + RELEASE_RETRY_WINDOW_MS, 1);
      throw error;
    }
  }

  async find(scope: IdempotencyScope, now: Date): Promise<KnownKey | undefined> {
    const row = await this.first<ReadRow>({ sql: FIND_KEY, bindings: [scope.merchantId, scope.mode, scope.caller, scope.key] });
    return row === undefined ? undefined : knownOf(row, now.getTime());
  }

  private async claimOnce(request: ClaimRequest): Promise<ClaimResult> {
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
        await this.insertWithoutWaiting({ ...key, ...fresh, state: 'in_flight', response_status: null, response_body: null, recovery_point: null });
        return claimed;
      } catch (error) {
        // Another transaction holds this key's claim uncommitted: it is running now.
        if (isLockWaitTimeout(error)) return { outcome: 'in_flight' };
        if (!isDuplicateKeyError(error)) throw error;
      }
      const row = await this.first<ReadRow>(
        this.table()
          .select([...READ_COLUMNS])
          .where(key),
      );
      if (row === undefined) continue; // released or purged since our insert: try again
      if (toNumber(row.expires_at) <= now) {
        // Forgotten: delete only the row we looked at, so a concurrent fresh claim survives.
        await this.changed(
          this.table()
            .where({ ...key, token: row.token })
            .delete(),
        );
        continue;
      }
      const known = knownOf(row, now);
      // A resumable key is taken over by a retry of its own request only.
      if (known && (known.outcome !== 'resumable' || known.fingerprint !== request.fingerprint)) return known;
      // The owner's lease ran out or was dropped. With no recovery point it committed nothing the
      // key answers for, so the key is free; with one, the new claim keeps it and resumes from it.
      // Take it only if nobody else just did.
      const taken = await this.changed(
        this.table()
          .where({ ...key, token: row.token, state: 'in_flight' })
          .update(fresh),
      );
      if (taken === 1) return row.recovery_point === null ? claimed : { ...claimed, recoveryPoint: row.recovery_point };
    }
    throw new CoreError('api_error', 'unavailable', 'The idempotency key is under heavy contention; retry shortly.', {
      retryAfterSeconds: 1,
    });
  }

  private async insertWithoutWaiting(row: IdempotencyRow): Promise<void> {
    const db = this.context.db();
    if (dialectOf(db) !== 'mysql') {
      // One connection per SQLite file here: no other transaction of this process can hold the row.
      await this.insertRow(row);
      return;
    }
    const version = async (): Promise<string | undefined> =>
      (await this.context.firstRow<{ version: string }>({ sql: 'select version() as version', bindings: [] }))?.version;
    await this.changed(withoutLockWait(await mysqlFlavourOf(this.context.knex, version), insertText(this.tableName, row)));
  }

  async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
    const { scope } = claim;
    const bindings = [response.status, response.body, scope.merchantId, scope.mode, scope.caller, scope.key, claim.token];
    return (await this.changed({ sql: COMPLETE_CLAIM, bindings })) === 1;
  }

  async bind(claim: IdempotencyClaim, recoveryPoint: string): Promise<boolean> {
    const changed = await this.changed(
      this.table()
        .where({ ...keyColumns(claim.scope), token: claim.token, state: 'in_flight' })
        .update({ recovery_point: recoveryPoint }),
    );
    return changed === 1;
  }

  /**
   * A release that cannot reach the database (the outage that failed the request, as often as not)
   * is tried again in the background until it lands or the lease would have freed the key anyway:
   * otherwise every client retry after a short outage meets 409 `idempotency_key_in_use` for the
   * whole lease. Safe at any time: it deletes only this claim's row, and only while unfinished and
   * bound to nothing (a bound one keeps its recovery point and loses its lease).
   */
  async release(claim: IdempotencyClaim): Promise<void> {
    try {
      await this.deleteClaim(claim);
    } catch (error) {
      if (isDatabaseUnavailableError(error)) this.releaseLater(claim, Date.now() + RELEASE_RETRY_WINDOW_MS, 1);
      throw error;
    }
  }

  /**
   * Deletes the claim's row unless it holds a recovery point; one that does (whether or not this
   * request knew its bind committed) keeps it and only loses its lease, so a retry resumes at once.
   */
  private async deleteClaim(claim: IdempotencyClaim): Promise<void> {
    const owned = { ...keyColumns(claim.scope), token: claim.token, state: 'in_flight' } as const;
    if ((await this.changed(this.table().where(owned).whereNull('recovery_point').delete())) === 0) {
      await this.changed(this.table().where(owned).whereNotNull('recovery_point').update({ locked_until: null }));
    }
  }

  private releaseLater(claim: IdempotencyClaim, until: number, attempt: number): void {
    const delay = Math.min(RELEASE_RETRY_MAX_DELAY_MS, 250 * 2 ** (attempt - 1));
    if (Date.now() + delay > until) return;
    // unref: a pending retry never holds up a process that is shutting down.
    setTimeout(() => {
      this.deleteClaim(claim).catch((error: unknown) => {
        // Anything but an outage (a destroyed pool at shutdown) ends the retries: the lease frees the key.
        if (isDatabaseUnavailableError(error)) this.releaseLater(claim, until, attempt + 1);
      });
    }, delay).unref();
  }

  async purgeExpired(now: Date): Promise<number> {
    return this.changed(this.table().where('expires_at', '<=', now.getTime()).delete());
  }
}
