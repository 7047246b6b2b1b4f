import { INLINE, KnexContext } from '@payments/storage-sql';
import type { Knex } from 'knex';

/** Instants are stored as epoch milliseconds (BIGINT, which mysql2 may hand back as a string). */
export const millis = (date: Date | undefined): number | null => (date === undefined ? null : date.getTime());
export const instant = (value: number | string): Date => new Date(Number(value));
export const date = (value: number | string | null): Date | undefined => (value === null ? undefined : instant(value));

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

/**
 * One table of the simulator's book. Its statements run with the driver's prepared statements
 * (the storage's SqlRunner, through a KnexContext; knex only builds them), in the transaction the
 * book opened (`transaction`) while one runs: the book's tables share one context.
 */
export abstract class SimulatorTable<Row extends { id: string }> {
  protected abstract readonly name: string;

  constructor(
    protected readonly knex: Knex,
    protected readonly context: KnexContext = new KnexContext(knex),
  ) {}

  /** A query of this table, in the book's transaction while one runs. */
  protected table() {
    return this.context.db()<Row>(this.name);
  }

  /** The rows `query` reads. */
  protected rows<T = Row>(query: Knex.QueryBuilder): Promise<T[]> {
    return this.context.rows<T>(query);
  }

  /** The first row `query` reads (it gets its `LIMIT 1` here). */
  protected first<T = Row>(query: Knex.QueryBuilder): Promise<T | undefined> {
    return this.context.firstRow<T>(query.limit(1, INLINE));
  }

  /** How many rows the INSERT, UPDATE or DELETE `query` changed. */
  protected async changed(query: Knex.QueryBuilder): Promise<number> {
    return (await this.context.write(query)).affectedRows;
  }

  /**
   * One transaction of the book, under the storage's one retry policy: a deadlock or a cluster's
   * certification failure runs it again, and one that keeps failing is a 503, never a 500. `work`
   * gets this table bound to the transaction (the book's other tables with it).
   */
  protected transaction<T>(work: (bound: this) => Promise<T>): Promise<T> {
    return this.context.inTransaction((transaction) => work(transaction.bind(this)));
  }

  /**
   * Takes the rows `due` selects for this worker and leases them (`lease` builds their UPDATE) in
   * one transaction, so no other worker takes them until the lease ends.
   */
  protected claim(due: () => Knex.QueryBuilder<Row>, lease: (claimed: Knex.QueryBuilder<Row>) => Knex.QueryBuilder): Promise<Row[]> {
    return this.transaction(async (bound) => {
      // Several workers: each skips the rows another is claiming (SQLite writes one at a time anyway).
      const rows = await bound.rows(bound.context.skippingLockedRead(due()));
      if (rows.length > 0)
        await bound.changed(
          lease(
            bound.table().whereIn(
              'id',
              rows.map((row) => row.id),
            ),
          ),
        );
      return rows;
    });
  }
}
