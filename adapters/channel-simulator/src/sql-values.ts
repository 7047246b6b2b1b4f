/** Instants are stored as epoch milliseconds (BIGINT, which mysql2 may hand back as a string). */
export const millis = (date: Date | undefined): number | null => (date === undefined ? null : date.getTime());
export const date = (value: number | string | null): Date | undefined => (value === null ? undefined : new Date(Number(value)));
