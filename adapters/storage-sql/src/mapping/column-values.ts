import type { Money } from '@payments/core';

/**
 * Conversions between entity values and columns. BIGINT may arrive as a string from mysql2 when it
 * exceeds 2^53 (never for our values, but the type says so); NULL becomes undefined because core
 * uses undefined for "absent".
 */

/** A BIGINT as either driver returns it. */
export type BigIntValue = number | string;

export function toNumber(value: BigIntValue): number {
  return typeof value === 'number' ? value : Number(value);
}

/**
 * An exact integer read as text (`CAST(… AS CHAR)`): sums and balances may pass 2^53 − 1, where
 * mysql2 answers a string and better-sqlite3 a rounded number, so the SQL hands over digits.
 */
export function toBigInt(value: BigIntValue): bigint {
  return BigInt(value);
}

export function toDate(value: BigIntValue): Date {
  return new Date(toNumber(value));
}

export function toOptionalDate(value: BigIntValue | null): Date | undefined {
  return value === null ? undefined : toDate(value);
}

export function toOptional<T>(value: T | null): T | undefined {
  return value === null ? undefined : value;
}

export function toMillis(date: Date): number {
  return date.getTime();
}

export function toNullableMillis(date: Date | undefined): number | null {
  return date === undefined ? null : date.getTime();
}

export function toNullable<T>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}

/** A Money as its two nullable columns (`x_amount`, `x_currency`): both NULL when there is none. */
export function moneyColumns(money: Money | undefined): [number | null, string | null] {
  return money === undefined ? [null, null] : [money.amount, money.currency];
}

/** A Money read back from its two nullable columns: none unless both hold a value. */
export function toMoney(amount: BigIntValue | null, currency: string | null): Money | undefined {
  return amount === null || currency === null ? undefined : { amount: toNumber(amount), currency };
}

/** A JSON column read back: it holds only what this adapter wrote there with JSON.stringify from a T. */
export function fromJson<T>(text: string): T {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the column's only writer stringified a T
  return JSON.parse(text) as T;
}

/** Rows mapped to entities keep no undefined fields: core's rule, one implementation. */
export { withoutUndefined } from '@payments/core';
