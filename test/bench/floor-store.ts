/**
 * The floor's storage: the few statements a correct payment-intent API cannot do without, on a
 * schema of its own, through the database driver directly (no query builder, no repositories).
 * Two implementations: MariaDB through mysql2 (floor-mariadb.ts), SQLite through better-sqlite3
 * (floor-sqlite.ts).
 */

export type Awaitable<T> = T | Promise<T>;

export interface KeyRow {
  readonly digest: string;
  readonly merchant_id: string;
  readonly mode: string;
}

export interface IdempotencyRow {
  readonly fingerprint: string;
  readonly status: number | null;
  readonly body: string | null;
}

/** The columns the floor's get and list read (the same for both). */
export interface IntentRow {
  readonly id: string;
  readonly mode: string;
  readonly amount: number | string;
  readonly currency: string;
  readonly merchant_order_id: string;
  readonly status: string;
  /** MariaDB's JSON is text; a driver may also hand back the parsed value. */
  readonly metadata: string | Record<string, unknown> | null;
  /** DATETIME(3): a Date from mysql2, ISO text from SQLite. */
  readonly created: Date | string;
  readonly expires_at: Date | string;
}

/** Everything one create writes, in its one transaction. */
export interface CreateWrite {
  readonly merchantId: string;
  readonly mode: string;
  readonly idempotencyKey: string;
  readonly fingerprint: string;
  readonly intentId: string;
  readonly amount: number;
  readonly currency: string;
  readonly merchantOrderId: string;
  readonly created: Date;
  readonly expiresAt: Date;
  readonly tokenHash: string;
  /** The answer stored for replays (status 201). */
  readonly answer: string;
}

/** The columns the floor's get and list read. */
const INTENT_COLUMNS = 'id, mode, amount, currency, merchant_order_id, status, metadata, created, expires_at';

/** The floor's statements: the same text on both engines (SQLite's list takes its LIMIT as a parameter: `intentsBound`). */
export const FLOOR_SQL = {
  apiKey: 'SELECT digest, merchant_id, mode FROM api_keys WHERE prefix = ?',
  idempotent: 'SELECT fingerprint, status, body FROM idempotency WHERE merchant_id = ? AND mode = ? AND ikey = ?',
  claim: 'INSERT INTO idempotency (merchant_id, mode, ikey, fingerprint, status, body, created) VALUES (?, ?, ?, ?, NULL, NULL, ?)',
  insertIntent:
    'INSERT INTO payment_intents (id, merchant_id, mode, amount, currency, merchant_order_id, status, metadata, created, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  insertSession: 'INSERT INTO checkout_sessions (token_hash, intent_id, expires_at) VALUES (?, ?, ?)',
  finish: 'UPDATE idempotency SET status = 201, body = ? WHERE merchant_id = ? AND mode = ? AND ikey = ?',
  intent: `SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE id = ? AND merchant_id = ? AND mode = ?`,
  // LIMIT as a literal: mysql2 binds a JS number as DOUBLE, which servers may refuse for LIMIT; the
  // value is one of a few (1 to 101), so the prepared-statement cache stays small.
  intents: (limit: number) => `SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE merchant_id = ? AND mode = ? ORDER BY seq DESC LIMIT ${limit}`,
  intentsBound: `SELECT ${INTENT_COLUMNS} FROM payment_intents WHERE merchant_id = ? AND mode = ? ORDER BY seq DESC LIMIT ?`,
  insertKey: 'INSERT INTO api_keys (prefix, digest, merchant_id, mode) VALUES (?, ?, ?, ?)',
} as const;

/** The statements a create writes with, in its transaction's order. */
export type CreateStatement = 'claim' | 'insertIntent' | 'insertSession' | 'finish';

/** The create's writes in order, each a statement and its values; `instant` gives a time as the engine stores it. */
export function createWrites<T>(write: CreateWrite, instant: (date: Date) => T): Array<[CreateStatement, Array<string | number | T>]> {
  const created = instant(write.created);
  const expiresAt = instant(write.expiresAt);
  return [
    ['claim', [write.merchantId, write.mode, write.idempotencyKey, write.fingerprint, created]],
    ['insertIntent', [write.intentId, write.merchantId, write.mode, write.amount, write.currency, write.merchantOrderId, 'created', '{}', created, expiresAt]],
    ['insertSession', [write.tokenHash, write.intentId, expiresAt]],
    ['finish', [write.answer, write.merchantId, write.mode, write.idempotencyKey]],
  ];
}

/** What the floor's database did, for the bench's checks and its statements-per-request figure. */
export interface FloorCounters {
  /** Every statement sent, BEGIN and COMMIT included (the service's count includes them too). */
  readonly statements: number;
  readonly writes: number;
  readonly commits: number;
}

export interface FloorStore {
  apiKey(prefix: string): Awaitable<KeyRow | undefined>;
  idempotent(merchantId: string, mode: string, key: string): Awaitable<IdempotencyRow | undefined>;
  /** The whole create in one transaction; throws a DuplicateError when a unique key refuses it. */
  create(write: CreateWrite): Awaitable<void>;
  intent(id: string, merchantId: string, mode: string): Awaitable<IntentRow | undefined>;
  /** The newest `limit` intents of the merchant and mode. */
  intents(merchantId: string, mode: string, limit: number): Awaitable<IntentRow[]>;
  counters(): FloorCounters;
  /** payment_intents rows, for the bench's "one row per 2xx" check (not counted). */
  countIntents(): Awaitable<number>;
  close(): Promise<void>;
}

/** A unique key refused the create (a concurrent request with the same key or order id). */
export class DuplicateError extends Error {}

/** Statement counting both stores share. */
export class Counting {
  statements = 0;
  writes = 0;
  commits = 0;

  read(): void {
    this.statements += 1;
  }

  write(): void {
    this.statements += 1;
    this.writes += 1;
  }

  begin(): void {
    this.statements += 1;
  }

  commit(): void {
    this.statements += 1;
    this.commits += 1;
  }

  rollback(): void {
    this.statements += 1;
  }

  snapshot(): FloorCounters {
    return { statements: this.statements, writes: this.writes, commits: this.commits };
  }
}

/** The one key the floor accepts, stored as the service stores keys: a prefix and a digest. */
export const FLOOR_MERCHANT_ID = 'mch_floor';
export const FLOOR_MODE = 'test';
