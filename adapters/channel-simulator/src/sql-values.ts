import { runRetrying } from '@payments/storage-sql';
import { Client, type Knex } from 'knex';

/** Instants are stored as epoch milliseconds (BIGINT, which mysql2 may hand back as a string). */
export const millis = (date: Date | undefined): number | null => (date === undefined ? null : date.getTime());
export const instant = (value: number | string): Date => new Date(Number(value));
export const date = (value: number | string | null): Date | undefined => (value === null ? undefined : instant(value));

/** Whether a knex instance or transaction talks to MySQL/MariaDB (knex types its client `any`). */
export const isMysql = (db: Knex): boolean => db.client instanceof Client && db.client.config.client === 'mysql2';

/** A JSON column read back: it holds only what this adapter wrote there with JSON.stringify from a T. */
export function fromJson<T>(text: string): T {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the column's only writer stringified a T
  return JSON.parse(text) as T;
}

/** An optional value in a nullable JSON column, and read back. */
export const toJsonColumn = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
export function fromJsonColumn<T>(text: string | null): T | undefined {
  return text === null ? undefined : fromJson<T>(text);
}

/** A row mapped to an entity keeps no `undefined` fields (optional fields are absent, as the entities declare them). */
export { withoutUndefined } from '@payments/core';

/** One table of the simulator's book; a write may join a transaction the book opened (`db`). */
export abstract class SimulatorTable<Row extends { id: string }> {
  protected abstract readonly name: string;

  constructor(protected readonly knex: Knex) {}

  protected table(db: Knex = this.knex) {
    return db<Row>(this.name);
  }

  /**
   * One transaction of the book, under the storage's one retry policy: a deadlock or a cluster's
   * certification failure runs it again, and one that keeps failing is a 503, never a 500.
   */
  protected transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return runRetrying({}, () => this.knex.transaction(work));
  }

  /**
   * Takes the rows `due` selects for this worker and leases them (`lease` updates them) in one
   * transaction, so no other worker takes them until the lease ends.
   */
  protected claim(
    due: (trx: Knex.Transaction) => Knex.QueryBuilder<Row>,
    lease: (claimed: Knex.QueryBuilder<Row>, trx: Knex.Transaction) => Promise<unknown>,
  ): Promise<Row[]> {
    return this.transaction(async (trx) => {
      const query = due(trx);
      // Several workers: each skips the rows another is claiming (SQLite writes one at a time anyway).
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- knex types a generic table's rows as any; `due` selects from this Row table only
      const rows: Row[] = await (isMysql(trx) ? query.forUpdate().skipLocked() : query);
      if (rows.length > 0)
        await lease(
          this.table(trx).whereIn(
            'id',
            rows.map((row) => row.id),
          ),
          trx,
        );
      return rows;
    });
  }
}
