import type { Knex } from 'knex';
import { dialectOf } from './dialect';

/**
 * The rows of a SELECT written as SQL text, for the reads every request makes (the API key, the
 * idempotency key, an intent by id): knex's builder compiles its SQL anew on every call, about a
 * tenth of such a request's CPU, and these statements never change. Backquoted names and `?`
 * placeholders read the same on MySQL/MariaDB and SQLite.
 */
export async function selectRows<T>(db: Knex, sql: string, bindings: readonly Knex.RawBinding[]): Promise<T[]> {
  const result: unknown = await db.raw(sql, [...bindings]);
  // mysql2 answers [rows, fields]; better-sqlite3 the rows.
  const rows: unknown = dialectOf(db) === 'mysql' && Array.isArray(result) ? result[0] : result;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the caller's SQL selects the columns of T
  return rows as T[];
}
