import Database from 'better-sqlite3';
import { Counting, DuplicateError, type CreateWrite, type FloorStore, type IdempotencyRow, type IntentRow, type KeyRow } from './floor-store';

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

const COLUMNS = 'id, mode, amount, currency, merchant_order_id, status, metadata, created, expires_at';

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
  db.prepare('INSERT INTO api_keys (prefix, digest, merchant_id, mode) VALUES (?, ?, ?, ?)').run(key.prefix, key.digest, key.merchant_id, key.mode);

  const statements = {
    apiKey: db.prepare<KeyRow>('SELECT digest, merchant_id, mode FROM api_keys WHERE prefix = ?'),
    idempotent: db.prepare<IdempotencyRow>('SELECT fingerprint, status, body FROM idempotency WHERE merchant_id = ? AND mode = ? AND ikey = ?'),
    begin: db.prepare('BEGIN'),
    claim: db.prepare('INSERT INTO idempotency (merchant_id, mode, ikey, fingerprint, status, body, created) VALUES (?, ?, ?, ?, NULL, NULL, ?)'),
    insertIntent: db.prepare(
      'INSERT INTO payment_intents (id, merchant_id, mode, amount, currency, merchant_order_id, status, metadata, created, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    insertSession: db.prepare('INSERT INTO checkout_sessions (token_hash, intent_id, expires_at) VALUES (?, ?, ?)'),
    finish: db.prepare('UPDATE idempotency SET status = 201, body = ? WHERE merchant_id = ? AND mode = ? AND ikey = ?'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    intent: db.prepare<IntentRow>(`SELECT ${COLUMNS} FROM payment_intents WHERE id = ? AND merchant_id = ? AND mode = ?`),
    intents: db.prepare<IntentRow>(`SELECT ${COLUMNS} FROM payment_intents WHERE merchant_id = ? AND mode = ? ORDER BY seq DESC LIMIT ?`),
    countIntents: db.prepare<{ count: number }>('SELECT COUNT(*) AS count FROM payment_intents'),
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
      const created = write.created.toISOString();
      const expiresAt = write.expiresAt.toISOString();
      count.begin();
      statements.begin.run();
      try {
        count.write();
        statements.claim.run(write.merchantId, write.mode, write.idempotencyKey, write.fingerprint, created);
        count.write();
        statements.insertIntent.run(
          write.intentId,
          write.merchantId,
          write.mode,
          write.amount,
          write.currency,
          write.merchantOrderId,
          'created',
          '{}',
          created,
          expiresAt,
        );
        count.write();
        statements.insertSession.run(write.tokenHash, write.intentId, expiresAt);
        count.write();
        statements.finish.run(write.answer, write.merchantId, write.mode, write.idempotencyKey);
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
