import mysql, { type RowDataPacket } from 'mysql2/promise';
import { Counting, createWrites, DuplicateError, FLOOR_SQL } from './floor-store';
import type { CreateWrite, FloorStore, IdempotencyRow, IntentRow, KeyRow } from './floor-store';

const SCHEMA = [
  `CREATE TABLE api_keys (
    prefix VARCHAR(16) NOT NULL PRIMARY KEY,
    digest CHAR(64) NOT NULL,
    merchant_id VARCHAR(40) NOT NULL,
    mode VARCHAR(8) NOT NULL
  ) ENGINE=InnoDB`,
  `CREATE TABLE idempotency (
    merchant_id VARCHAR(40) NOT NULL,
    mode VARCHAR(8) NOT NULL,
    ikey VARCHAR(255) NOT NULL,
    fingerprint CHAR(64) NOT NULL,
    status INT NULL,
    body MEDIUMTEXT NULL,
    created DATETIME(3) NOT NULL,
    PRIMARY KEY (merchant_id, mode, ikey)
  ) ENGINE=InnoDB`,
  `CREATE TABLE payment_intents (
    seq BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    id VARCHAR(40) NOT NULL,
    merchant_id VARCHAR(40) NOT NULL,
    mode VARCHAR(8) NOT NULL,
    amount BIGINT NOT NULL,
    currency CHAR(3) NOT NULL,
    merchant_order_id VARCHAR(255) NOT NULL,
    status VARCHAR(20) NOT NULL,
    metadata JSON NULL,
    created DATETIME(3) NOT NULL,
    expires_at DATETIME(3) NOT NULL,
    UNIQUE KEY payment_intents_id (id),
    UNIQUE KEY payment_intents_order (merchant_id, mode, merchant_order_id),
    KEY payment_intents_newest (merchant_id, mode, seq)
  ) ENGINE=InnoDB`,
  `CREATE TABLE checkout_sessions (
    token_hash CHAR(64) NOT NULL PRIMARY KEY,
    intent_id VARCHAR(40) NOT NULL,
    expires_at DATETIME(3) NOT NULL
  ) ENGINE=InnoDB`,
];

/** The callback connection mysql2's pool hands to its 'connection' listeners (typed as the promise one). */
interface CoreConnection {
  query(sql: string, callback: (error: Error | null) => void): void;
}

function isDuplicate(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ER_DUP_ENTRY';
}

/** Connection settings of a `mysql://user:pass@host:port/database` URL. */
function connectionOf(url: string): mysql.PoolOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: parsed.port === '' ? 3306 : Number(parsed.port),
    user: decodeURIComponent(parsed.username),
    ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
  };
}

/**
 * The floor on MariaDB: a mysql2 pool of 10 connections (the service's pool size), every
 * statement a prepared one (`execute`), sessions set up as the service's are (READ COMMITTED, so
 * concurrent inserts take no gap locks; UTC).
 */
export async function openMariaDbFloor(url: string, key: KeyRow & { readonly prefix: string }): Promise<FloorStore> {
  const pool = mysql.createPool({ ...connectionOf(url), connectionLimit: 10, charset: 'utf8mb4', timezone: 'Z', supportBigNumbers: true });
  pool.on('connection', (connection) => {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- mysql2/promise types it as its promise wrapper; the pool emits the callback connection
    const core = connection as unknown as CoreConnection;
    const report = (error: Error | null): void => {
      if (error) process.stderr.write(`floor: session set-up failed: ${error.message}\n`);
    };
    core.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', report);
    core.query("SET time_zone = '+00:00'", report);
  });
  try {
    for (const statement of SCHEMA) await pool.query(statement);
    await pool.execute(FLOOR_SQL.insertKey, [key.prefix, key.digest, key.merchant_id, key.mode]);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const count = new Counting();
  const rows = async <T>(sql: string, values: Array<string | number>): Promise<T[]> => {
    count.read();
    const [result] = await pool.execute(sql, values);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the caller's SQL selects the columns of T
    return result as T[];
  };

  return {
    apiKey: async (prefix) => (await rows<KeyRow>(FLOOR_SQL.apiKey, [prefix]))[0],
    idempotent: async (merchantId, mode, ikey) => (await rows<IdempotencyRow>(FLOOR_SQL.idempotent, [merchantId, mode, ikey]))[0],
    intent: async (id, merchantId, mode) => (await rows<IntentRow>(FLOOR_SQL.intent, [id, merchantId, mode]))[0],
    intents: (merchantId, mode, limit) => rows<IntentRow>(FLOOR_SQL.intents(limit), [merchantId, mode]),
    async create(write: CreateWrite): Promise<void> {
      const connection = await pool.getConnection();
      try {
        count.begin();
        await connection.query('START TRANSACTION');
        for (const [statement, values] of createWrites(write, (date) => date)) {
          count.write();
          await connection.execute(FLOOR_SQL[statement], values);
        }
        count.commit();
        await connection.query('COMMIT');
      } catch (error) {
        count.rollback();
        await connection.query('ROLLBACK').catch(() => undefined);
        throw isDuplicate(error) ? new DuplicateError('duplicate key') : error;
      } finally {
        connection.release();
      }
    },
    counters: () => count.snapshot(),
    countIntents: async () => {
      const [result] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS count FROM payment_intents');
      return Number(result[0]?.count ?? 0);
    },
    close: () => pool.end(),
  };
}

/** Creates an empty database of that name on the server of `serverUrl` (name: [a-z0-9_] only). */
export async function createMariaDbDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = await mysql.createConnection(connectionOf(serverUrl));
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropMariaDbDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = await mysql.createConnection(connectionOf(serverUrl));
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await admin.end();
  }
}

/** The floor's statements per request of each scenario (MariaDB's text; SQLite's is the same with BEGIN), for the report. */
export const FLOOR_STATEMENTS: Readonly<Record<string, readonly string[]>> = {
  create: [FLOOR_SQL.apiKey, 'START TRANSACTION', FLOOR_SQL.claim, FLOOR_SQL.insertIntent, FLOOR_SQL.insertSession, FLOOR_SQL.finish, 'COMMIT'],
  replay: [FLOOR_SQL.apiKey, FLOOR_SQL.idempotent],
  get: [FLOOR_SQL.apiKey, FLOOR_SQL.intent],
  list: [FLOOR_SQL.apiKey, FLOOR_SQL.intents(21)],
};
