import type {
  ClaimedDelivery,
  DeliveryAttemptRecord,
  Mode,
  Page,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookDeliveryListRequest,
  WebhookDeliveryListScope,
  WebhookDeliveryRepository,
  WebhookDeliveryStatus,
  WebhookEndpointHealth,
} from '@payments/core';
import { ConcurrentUpdateError } from '@payments/core';
import type { Knex } from 'knex';
import { inRepositoryTransaction, type KnexContext } from '../knex-context';
import { INLINE, insertText, type Statement } from '../sql-statements';
import { ContendedTransactionError } from '../transaction-retry';
import {
  toDate,
  toMillis,
  toNullable,
  toNullableMillis,
  toNumber,
  toOptional,
  toOptionalDate,
  withoutUndefined,
  type BigIntValue,
} from '../mapping/column-values';
import { cursorSeq } from './cursor';
import { eventFromRow, type EventRow } from './knex-event-outbox.repository';

interface DeliveryRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  mode: Mode;
  event_id: string;
  endpoint_id: string;
  url: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  schedule_attempts: number;
  response_status: number | null;
  last_error: string | null;
  next_retry_at: BigIntValue | null;
  locked_until: BigIntValue | null;
  created_at: BigIntValue;
  updated_at: BigIntValue;
}

interface AttemptRow {
  seq?: BigIntValue;
  id: string;
  delivery_id: string;
  endpoint_id: string;
  at: BigIntValue;
  response_status: number | null;
  latency_ms: number;
  error: string | null;
  /** Migration 025; NULL for attempts logged before it. */
  api_version?: string | null;
  response_body?: string | null;
}

const ERROR_LENGTH = 500;

function toEntity(row: DeliveryRow): WebhookDelivery {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    url: row.url,
    status: row.status,
    attempts: toNumber(row.attempts),
    scheduleAttempts: toNumber(row.schedule_attempts),
    responseStatus: row.response_status === null ? undefined : toNumber(row.response_status),
    lastError: toOptional(row.last_error),
    nextRetryAt: toOptionalDate(row.next_retry_at),
    lockedUntil: toOptionalDate(row.locked_until),
    created: toDate(row.created_at),
    updated: toDate(row.updated_at),
  });
}

function attemptToEntity(row: AttemptRow): WebhookDeliveryAttempt {
  return withoutUndefined({
    id: row.id,
    deliveryId: row.delivery_id,
    at: toDate(row.at),
    responseStatus: row.response_status === null ? undefined : toNumber(row.response_status),
    latencyMs: toNumber(row.latency_ms),
    error: toOptional(row.error),
    apiVersion: toOptional(row.api_version ?? null),
    responseBody: toOptional(row.response_body ?? null),
  });
}

function clip(value: string | undefined): string | null {
  return value === undefined ? null : value.slice(0, ERROR_LENGTH);
}

/** The columns an attempt changes: the delivery's new state, its lease given back. */
function stateAfterAttempt(next: WebhookDelivery): Omit<DeliveryRow, 'seq' | 'id' | 'merchant_id' | 'mode' | 'event_id' | 'endpoint_id' | 'created_at'> {
  return {
    url: next.url,
    status: next.status,
    attempts: next.attempts,
    schedule_attempts: next.scheduleAttempts,
    response_status: toNullable(next.responseStatus),
    last_error: clip(next.lastError),
    next_retry_at: toNullableMillis(next.nextRetryAt),
    locked_until: null,
    updated_at: toMillis(next.updated),
  };
}

function attemptRow(attempt: WebhookDeliveryAttempt, endpointId: string): AttemptRow {
  return {
    id: attempt.id,
    delivery_id: attempt.deliveryId,
    endpoint_id: endpointId,
    at: toMillis(attempt.at),
    response_status: toNullable(attempt.responseStatus),
    latency_ms: Math.max(0, Math.round(attempt.latencyMs)),
    error: clip(attempt.error),
    api_version: toNullable(attempt.apiVersion),
    response_body: toNullable(attempt.responseBody),
  };
}

/** Records per statement of `recordAttempts`: bounds the CASE lists and the bound values (SQLite's limit). */
const RECORD_CHUNK = 100;

export class KnexWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(readonly context: KnexContext) {}

  private table(db: Knex = this.context.db()) {
    return db<DeliveryRow>('webhook_deliveries');
  }

  /** How many rows the INSERT, UPDATE or DELETE `statement` changed. */
  private async changed(statement: Statement): Promise<number> {
    return (await this.context.write(statement)).affectedRows;
  }

  /** `work` in the transaction this repository is bound to, else in one of its own (BEGIN … COMMIT on one pooled connection), with the repository bound to it. */
  private inTransaction<T>(work: (trx: Knex, bound: KnexWebhookDeliveryRepository) => Promise<T>): Promise<T> {
    return inRepositoryTransaction(this, (bound) => work(bound.context.db(), bound));
  }

  async insert(delivery: WebhookDelivery): Promise<void> {
    await this.context.write(
      insertText('webhook_deliveries', {
        id: delivery.id,
        merchant_id: delivery.merchantId,
        mode: delivery.mode,
        event_id: delivery.eventId,
        endpoint_id: delivery.endpointId,
        url: delivery.url,
        status: delivery.status,
        attempts: delivery.attempts,
        schedule_attempts: delivery.scheduleAttempts,
        response_status: toNullable(delivery.responseStatus),
        last_error: clip(delivery.lastError),
        next_retry_at: toNullableMillis(delivery.nextRetryAt),
        locked_until: toNullableMillis(delivery.lockedUntil),
        created_at: toMillis(delivery.created),
        updated_at: toMillis(delivery.updated),
      }),
    );
  }

  async claimDue(mode: Mode, now: Date, leaseUntil: Date, limit: number, excluding: ReadonlySet<string> = new Set()): Promise<ClaimedDelivery[]> {
    const claim = async (trx: Knex, bound: KnexWebhookDeliveryRepository): Promise<ClaimedDelivery[]> => {
      const t = toMillis(now);
      const query = bound
        .table(trx)
        .where({ status: 'pending', mode })
        .whereNotIn('id', [...excluding])
        .where('next_retry_at', '<=', t)
        .where((q) => void q.whereNull('locked_until').orWhere('locked_until', '<=', t))
        .orderBy('next_retry_at', 'asc')
        .orderBy('seq', 'asc')
        .limit(limit, INLINE);
      // MySQL/MariaDB: concurrent passes skip each other's rows instead of waiting or double-claiming.
      // SQLite: one connection, so the transaction alone serialises claimers.
      const rows = await bound.context.rows<DeliveryRow>(bound.context.skippingLockedRead(query));
      if (rows.length === 0) return [];
      const ids = rows.map((row) => row.id);
      // The lease is taken only where none runs, and every row must take it: SKIP LOCKED skips
      // nothing that another node of a multi-writer cluster locked, so a row claimed there
      // meanwhile fails this claim, which runs again and leaves that row to its holder.
      const leased = await bound.changed(
        bound
          .table(trx)
          .whereIn('id', ids)
          .where({ status: 'pending' })
          .where((q) => void q.whereNull('locked_until').orWhere('locked_until', '<=', t))
          .update({ locked_until: toMillis(leaseUntil) }),
      );
      if (leased !== ids.length) throw new ConcurrentUpdateError('Another relay pass claimed some of these deliveries meanwhile.');
      const events = await bound.context.rows<EventRow>(trx<EventRow>('events').whereIn('id', [...new Set(rows.map((row) => row.event_id))]));
      const byId = new Map(events.map((row) => [row.id, eventFromRow(row)]));
      return rows.map((row) => {
        const event = byId.get(row.event_id);
        if (!event) throw new Error(`Webhook delivery ${row.id} names no event`);
        return { delivery: toEntity({ ...row, locked_until: toMillis(leaseUntil) }), event };
      });
    };
    try {
      return await this.inTransaction(claim);
    } catch (error) {
      // Other passes kept taking the same rows: they are being delivered, so this pass has nothing.
      if (error instanceof ContendedTransactionError) return [];
      throw error;
    }
  }

  async recordAttempt(next: WebhookDelivery, heldUntil: Date, attempt: WebhookDeliveryAttempt | undefined): Promise<boolean> {
    const record = async (trx: Knex, bound: KnexWebhookDeliveryRepository): Promise<boolean> => {
      const changed = await bound.changed(
        bound
          .table(trx)
          .where({ id: next.id, locked_until: toMillis(heldUntil) })
          .update(stateAfterAttempt(next)),
      );
      if (changed === 0) return false;
      if (!attempt) return true;
      await bound.changed(trx<AttemptRow>('webhook_delivery_attempts').insert(attemptRow(attempt, next.endpointId)));
      return true;
    };
    return this.inTransaction(record);
  }

  /**
   * Four statements for any number of records (a chunk of RECORD_CHUNK at a time): read the
   * leases (locked on MySQL/MariaDB until the commit), one UPDATE whose columns are CASE lists
   * over the ids still held, one multi-row INSERT of their attempts.
   */
  async recordAttempts(records: readonly DeliveryAttemptRecord[]): Promise<boolean[]> {
    if (records.length === 0) return [];
    const record = async (trx: Knex, bound: KnexWebhookDeliveryRepository): Promise<boolean[]> => {
      const held: boolean[] = [];
      for (let from = 0; from < records.length; from += RECORD_CHUNK) held.push(...(await bound.recordChunk(trx, records.slice(from, from + RECORD_CHUNK))));
      return held;
    };
    return this.inTransaction(record);
  }

  private async recordChunk(trx: Knex, records: readonly DeliveryAttemptRecord[]): Promise<boolean[]> {
    const query = this.table(trx)
      .whereIn(
        'id',
        records.map((r) => r.next.id),
      )
      .select('id', 'locked_until');
    // MySQL/MariaDB: the rows stay locked until the commit, so no other pass takes a lease over between this read and the update.
    const locked = await this.context.rows<Pick<DeliveryRow, 'id' | 'locked_until'>>(this.context.lockedRead(query));
    const leases = new Map(locked.map((row) => [row.id, row.locked_until === null ? undefined : toNumber(row.locked_until)]));
    const held = records.map((r) => leases.get(r.next.id) === toMillis(r.heldUntil));
    const kept = records.filter((_, i) => held[i]);
    if (kept.length === 0) return held;
    const states: Array<{ id: string; state: Record<string, Knex.Value> }> = kept.map((r) => ({ id: r.next.id, state: stateAfterAttempt(r.next) }));
    const columns = Object.keys(states[0].state);
    const whens = states.map(() => 'when ? then ?').join(' ');
    const update = Object.fromEntries(
      columns.map((column) => [column, trx.raw(`case ?? ${whens} else ?? end`, ['id', ...states.flatMap(({ id, state }) => [id, state[column]]), column])]),
    );
    // Each row only while it still holds the lease it was read with: a lease another node's pass
    // took over meanwhile (its lock held nobody up here) fails the record, which runs again.
    const written = await this.changed(
      this.table(trx)
        .where((held) => {
          for (const r of kept) void held.orWhere({ id: r.next.id, locked_until: toMillis(r.heldUntil) });
        })
        .update(update),
    );
    if (written !== kept.length) throw new ConcurrentUpdateError('Another relay pass took some of these deliveries over meanwhile.');
    const attempts = kept.flatMap((r) => (r.attempt ? [attemptRow(r.attempt, r.next.endpointId)] : []));
    if (attempts.length > 0) await this.changed(trx<AttemptRow>('webhook_delivery_attempts').insert(attempts));
    return held;
  }

  async listAttempts(deliveryId: string): Promise<WebhookDeliveryAttempt[]> {
    const rows = await this.context.rows<AttemptRow>(
      this.context.db()<AttemptRow>('webhook_delivery_attempts').where({ delivery_id: deliveryId }).orderBy('seq', 'asc'),
    );
    return rows.map(attemptToEntity);
  }

  async findById(scope: WebhookDeliveryListScope, id: string): Promise<WebhookDelivery | undefined> {
    const query = this.table().where({ id, merchant_id: scope.merchantId });
    if (scope.mode !== undefined) query.where({ mode: scope.mode });
    const row = await this.context.firstRow<DeliveryRow>(query.limit(1, INLINE));
    return row ? toEntity(row) : undefined;
  }

  async list(scope: WebhookDeliveryListScope, page: WebhookDeliveryListRequest): Promise<Page<WebhookDelivery>> {
    const query = this.table().where({ merchant_id: scope.merchantId });
    if (scope.mode !== undefined) query.where({ mode: scope.mode });
    if (page.endpointId !== undefined) query.where({ endpoint_id: page.endpointId });
    if (page.startingAfter !== undefined) {
      query.where('seq', '<', await cursorSeq(this.context, 'webhook_deliveries', scope, page.startingAfter, 'webhook delivery'));
    }
    const rows = await this.context.rows<DeliveryRow>(query.orderBy('seq', 'desc').limit(page.limit + 1, INLINE));
    return { data: rows.slice(0, page.limit).map(toEntity), hasMore: rows.length > page.limit };
  }

  async rearm(next: WebhookDelivery): Promise<boolean> {
    const changed = await this.changed(
      this.table()
        .where({ id: next.id, merchant_id: next.merchantId, mode: next.mode })
        .update({
          status: next.status,
          schedule_attempts: next.scheduleAttempts,
          next_retry_at: toNullableMillis(next.nextRetryAt),
          updated_at: toMillis(next.updated),
        }),
    );
    return changed > 0;
  }

  async endpointHealth(endpointId: string): Promise<WebhookEndpointHealth> {
    const db = this.context.db();
    const counts = await this.context.firstRow<{ attempts: BigIntValue | null; successes: BigIntValue | null }>(
      db<AttemptRow>('webhook_delivery_attempts')
        .where({ endpoint_id: endpointId })
        .select(db.raw('count(*) as attempts'), db.raw('sum(case when response_status >= 200 and response_status < 300 then 1 else 0 end) as successes')),
    );
    const last = await this.context.firstRow<AttemptRow>(
      db<AttemptRow>('webhook_delivery_attempts')
        .where({ endpoint_id: endpointId })
        .where((q) => void q.whereNull('response_status').orWhere('response_status', '<', 200).orWhere('response_status', '>=', 300))
        .orderBy('seq', 'desc')
        .limit(1, INLINE),
    );
    const success = await this.context.firstRow<AttemptRow>(
      db<AttemptRow>('webhook_delivery_attempts')
        .where({ endpoint_id: endpointId })
        .where('response_status', '>=', 200)
        .where('response_status', '<', 300)
        .orderBy('seq', 'desc')
        .limit(1, INLINE),
    );
    const firstFailure = last
      ? await this.context.firstRow<AttemptRow>(
          db<AttemptRow>('webhook_delivery_attempts')
            .where({ endpoint_id: endpointId })
            .where('seq', '>', success?.seq ?? 0)
            .orderBy('seq', 'asc')
            .limit(1, INLINE),
        )
      : undefined;
    const failing = last !== undefined && (success === undefined || toNumber(last.seq ?? 0) > toNumber(success.seq ?? 0));
    return withoutUndefined({
      failingSince: failing && firstFailure ? toDate(firstFailure.at) : undefined,
      attempts: toNumber(counts?.attempts ?? 0),
      successes: toNumber(counts?.successes ?? 0),
      lastError: last ? (last.error ?? `HTTP ${last.response_status}`) : undefined,
      lastErrorAt: last ? toDate(last.at) : undefined,
    });
  }
}
