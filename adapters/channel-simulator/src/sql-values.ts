import { Client, type Knex } from 'knex';

/** Instants are stored as epoch milliseconds (BIGINT, which mysql2 may hand back as a string). */
export const millis = (date: Date | undefined): number | null => (date === undefined ? null : date.getTime());
export const date = (value: number | string | null): Date | undefined => (value === null ? undefined : new Date(Number(value)));

/** Whether a knex instance or transaction talks to MySQL/MariaDB (knex types its client `any`). */
export const isMysql = (db: Knex): boolean => db.client instanceof Client && db.client.config.client === 'mysql2';

/** A JSON column read back: it holds only what this adapter wrote there with JSON.stringify from a T. */
export function fromJson<T>(text: string): T {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the column's only writer stringified a T
  return JSON.parse(text) as T;
}

/** A row mapped to an entity keeps no `undefined` fields (optional fields are absent, as the entities declare them). */
export { withoutUndefined } from '@payments/core';
