import type { Knex } from 'knex';
import { createKnex, INLINE, KnexContext, onOneConnection, SqlRunner, type Statement, type WriteResult } from '@payments/storage-sql';
import { Counting, DuplicateError, type CreateWrite, type FloorStore, type IdempotencyRow, type IntentRow, type KeyRow } from './floor-store';

const COLUMNS = ['id', 'mode', 'amount', 'currency', 'merchant_order_id', 'status', 'metadata', 'created', 'expires_at'] as const;

function isDuplicate(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export interface KnexFloorOptions {
  /**
   * Route every statement through a KnexContext, as the service's repositories do: create's
   * transaction is its `inTransaction`, which hands the transaction to the work, and the writes
   * run through the context bound to it (`transaction.bind`); reads run through the unbound
   * context on the pool.
   */
  readonly unitOfWork: boolean;
}

/**
 * The floor's statements on the floor's schema (made by the floor process), as the service's
 * storage runs its own: built by knex's query builder (a knex instance made by the service's own
 * `createKnex`: pool, session set-up and pragmas as the service's) and run by the service's
 * SqlRunner with the driver's prepared statements; for create's one transaction what the
 * service's unit of work does (BEGIN, the statements and COMMIT on one pooled connection; with
 * the unit-of-work step, the service's own KnexContext.inTransaction). The statements are the floor's (no
 * `LIMIT 1` on the single-row reads); the step adds knex's builder and compiler, the runner and
 * knex's pool.
 */
export async function openKnexFloor(url: string, options: KnexFloorOptions): Promise<FloorStore> {
  const knex = createKnex(url);
  const sqlite = url.startsWith('sqlite:');
  // The floor stores ISO text on SQLite (better-sqlite3 cannot bind a Date) and DATETIME(3) on MariaDB.
  const time = (value: Date): Date | string => (sqlite ? value.toISOString() : value);
  const context = options.unitOfWork ? new KnexContext(knex) : undefined;
  const runner = new SqlRunner(knex);
  const count = new Counting();

  const rows = async <T>(query: Knex.QueryBuilder): Promise<T[]> => {
    count.read();
    return context ? context.rows<T>(query) : runner.withPooledConnection((connection) => runner.rows<T>(connection, query));
  };
  type Write = (statement: Statement) => Promise<WriteResult>;
  const writeAll = async (run: Write, write: CreateWrite): Promise<void> => {
    count.write();
    await run(
      knex('idempotency').insert({
        merchant_id: write.merchantId,
        mode: write.mode,
        ikey: write.idempotencyKey,
        fingerprint: write.fingerprint,
        status: null,
        body: null,
        created: time(write.created),
      }),
    );
    count.write();
    await run(
      knex('payment_intents').insert({
        id: write.intentId,
        merchant_id: write.merchantId,
        mode: write.mode,
        amount: write.amount,
        currency: write.currency,
        merchant_order_id: write.merchantOrderId,
        status: 'created',
        metadata: '{}',
        created: time(write.created),
        expires_at: time(write.expiresAt),
      }),
    );
    count.write();
    await run(knex('checkout_sessions').insert({ token_hash: write.tokenHash, intent_id: write.intentId, expires_at: time(write.expiresAt) }));
    count.write();
    await run(
      knex('idempotency').update({ status: 201, body: write.answer }).where({ merchant_id: write.merchantId, mode: write.mode, ikey: write.idempotencyKey }),
    );
  };

  const store: FloorStore = {
    apiKey: async (prefix) => (await rows<KeyRow>(knex('api_keys').select('digest', 'merchant_id', 'mode').where({ prefix })))[0],
    idempotent: async (merchantId, mode, ikey) =>
      (await rows<IdempotencyRow>(knex('idempotency').select('fingerprint', 'status', 'body').where({ merchant_id: merchantId, mode, ikey })))[0],
    intent: async (id, merchantId, mode) => (await rows<IntentRow>(knex('payment_intents').select(COLUMNS).where({ id, merchant_id: merchantId, mode })))[0],
    intents: (merchantId, mode, limit) =>
      rows<IntentRow>(knex('payment_intents').select(COLUMNS).where({ merchant_id: merchantId, mode }).orderBy('seq', 'desc').limit(limit, INLINE)),
    async create(write: CreateWrite): Promise<void> {
      count.begin();
      try {
        if (context) {
          await context.inTransaction((transaction) => {
            const bound = transaction.bind(context);
            return writeAll((statement) => bound.write(statement), write);
          });
        } else await onOneConnection(runner, ({ connection }) => writeAll((statement) => runner.write(connection, statement), write));
        count.commit();
      } catch (error) {
        count.rollback();
        throw isDuplicate(error) ? new DuplicateError('duplicate key') : error;
      }
    },
    counters: () => count.snapshot(),
    countIntents: async () => {
      const row = await knex('payment_intents').count({ count: '*' }).first<{ count: number | string } | undefined>();
      return Number(row?.count ?? 0);
    },
    close: () => knex.destroy(),
  };
  if (context) {
    // The service enters its storage with its first unit of work; here at start-up, so every
    // measured request of every scenario runs with promise hooks on, as the service's do.
    await context.inTransaction(async () => undefined);
  }
  return store;
}
