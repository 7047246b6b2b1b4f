/** Instants are stored as epoch milliseconds (BIGINT, which mysql2 may hand back as a string). */
export const millis = (date: Date | undefined): number | null => (date === undefined ? null : date.getTime());
export const date = (value: number | string | null): Date | undefined => (value === null ? undefined : new Date(Number(value)));

/** A row mapped to an entity keeps no `undefined` fields (optional fields are absent, as the entities declare them). */
export { withoutUndefined } from '@payments/core';
