import Database from 'better-sqlite3';
import { Counting, createWrites, DuplicateError, FLOOR_SQL } from './floor-store';
import type { CreateStatement, CreateWrite, FloorStore, IdempotencyRow, IntentRow, KeyRow } from './floor-store';

// Timestamps as ISO text: what the answer shows, so reads need no conversion.
const SCHEMA = `
  CREATE TABLE api_keys (
    prefix VARCHAR(16) NOT NULL PRIMARY KEY,
    digest CHAR(64) NOT NULL,
    merchant_id VARCHAR(40) NOT NULL,
    mode VARCHAR(8) NOT NULL
  );
  CREATE TABLE idempotency (
    merchant_id VARCHAR(40) NOT NULL,
    mode VARCHAR(8) NOT NULL,
    ikey VARCHAR(255) NOT NULL,
    fingerprint CHAR(64) NOT NULL,
    status INT NULL,
    body MEDIUMTEXT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (merchant_id, mode, ikey)
  );
  CREATE TABLE payment_intents (
    seq INTEGER PRIMARY KEY,
    id VARCHAR(40) NOT NULL UNIQUE,
    merchant_id VARCHAR(40) NOT NULL,
    mode VARCHAR(8) NOT NULL,
    amount BIGINT NOT NULL,
    currency CHAR(3) NOT NULL,
    merchant_order_id VARCHAR(255) NOT NULL,
    status VARCHAR(20) NOT NULL,
    metadata TEXT NULL,
    created TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    UNIQUE (merchant_id, mode, merchant_order_id)
  );
  CREATE INDEX payment_intents_newest ON payment_intents (merchant_id, mode, seq);
  CREATE TABLE checkout_sessions (
    token_hash CHAR(64) NOT NULL PRIMARY KEY,
    intent_id VARCHAR(40) NOT NULL,
    expires_at TEXT NOT NULL
  );
`;

function isDuplicate(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * The floor on SQLite: one better-sqlite3 connection (the service's knex has one too) with the
 * pragmas the service's createKnex sets (WAL, busy_timeout, foreign_keys) and SQLite's default
 * synchronous, so a commit is as durable as the service's. Statements prepared once.
 */
export function openSqliteFloor(filename: string, key: KeyRow & { readonly prefix: string }): FloorStore {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  db.prepare(FLOOR_SQL.insertKey).run(key.prefix, key.digest, key.merchant_id, key.mode);

  const statements = {
    apiKey: db.prepare<KeyRow>(FLOOR_SQL.apiKey),
    idempotent: db.prepare<IdempotencyRow>(FLOOR_SQL.idempotent),
    begin: db.prepare('BEGIN'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    intent: db.prepare<IntentRow>(FLOOR_SQL.intent),
    intents: db.prepare<IntentRow>(FLOOR_SQL.intentsBound),
    countIntents: db.prepare<{ count: number }>('SELECT COUNT(*) AS count FROM payment_intents'),
  };
  const writes: Record<CreateStatement, Database.Statement> = {
    claim: db.prepare(FLOOR_SQL.claim),
    insertIntent: db.prepare(FLOOR_SQL.insertIntent),
    insertSession: db.prepare(FLOOR_SQL.insertSession),
    finish: db.prepare(FLOOR_SQL.finish),
  };
  const count = new Counting();

  return {
    apiKey: (prefix) => {
      count.read();
      return statements.apiKey.get(prefix);
    },
    idempotent: (merchantId, mode, ikey) => {
      count.read();
      return statements.idempotent.get(merchantId, mode, ikey);
    },
    intent: (id, merchantId, mode) => {
      count.read();
      return statements.intent.get(id, merchantId, mode);
    },
    intents: (merchantId, mode, limit) => {
      count.read();
      return statements.intents.all(merchantId, mode, limit);
    },
    create(write: CreateWrite): void {
      count.begin();
      statements.begin.run();
      try {
        for (const [statement, values] of createWrites(write, (date) => date.toISOString())) {
          count.write();
          writes[statement].run(...values);
        }
        count.commit();
        statements.commit.run();
      } catch (error) {
        // A failed COMMIT may have ended the transaction already.
        if (db.inTransaction) {
          count.rollback();
          statements.rollback.run();
        }
        throw isDuplicate(error) ? new DuplicateError('duplicate key') : error;
      }
    },
    counters: () => count.snapshot(),
    countIntents: () => Number(statements.countIntents.get()?.count),
    close: async () => {
      db.close();
    },
  };
}
