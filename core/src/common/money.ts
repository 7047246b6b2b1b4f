import { code as iso4217 } from 'currency-codes';
import { CoreError, invalidParameter } from './core-error';

/** An amount in integer minor units of its currency (satang for THB, yen for JPY). Never a float. */
export interface Money {
  readonly amount: number;
  readonly currency: string;
}

/** The largest amount we accept: JavaScript numbers are exact integers up to 2^53 - 1. */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/**
 * currency-codes' `code()` scans its whole list on every call, and a request checks currencies
 * several times; its answers never change, so each code is looked up there once.
 */
const lookups = new Map<string, ReturnType<typeof iso4217>>();
function currencyEntry(currency: string): ReturnType<typeof iso4217> {
  if (lookups.has(currency)) return lookups.get(currency);
  const entry = iso4217(currency);
  // Only well-formed codes are kept, so arbitrary input cannot grow the map past 26^3 entries.
  if (CURRENCY_PATTERN.test(currency)) lookups.set(currency, entry);
  return entry;
}

/** True when `currency` is an active ISO 4217 code. */
export function isKnownCurrency(currency: string): boolean {
  return CURRENCY_PATTERN.test(currency) && currencyEntry(currency) !== undefined;
}

/** Minor-unit exponent of an ISO 4217 currency (THB 2, JPY 0, KWD 3). */
export function minorUnits(currency: string): number {
  const entry = currencyEntry(currency);
  if (!entry) throw new CoreError('invalid_currency', 'validation', `Unknown currency '${currency}'.`, { param: 'currency' });
  return entry.digits;
}

/**
 * Minor units as an exact decimal string in `currency`'s digits (12345 THB → "123.45", 500 JPY →
 * "500", -150 THB → "-1.50", 5 KWD → "0.005"): done on the digits, never through a float, so any
 * integer (a BigInt sum past 2^53 − 1 too) comes out exact. A number that is not an exact integer
 * is a bug of the caller, refused rather than rounded.
 */
export function decimalAmount(minor: number | bigint, currency: string): string {
  if (typeof minor === 'number' && !Number.isSafeInteger(minor)) {
    throw new CoreError('api_error', 'internal', `decimalAmount takes an exact integer of minor units, not ${String(minor)}.`);
  }
  const digits = minorUnits(currency);
  const value = BigInt(minor);
  const negative = value < 0n;
  const text = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = digits > 0 ? `.${text.slice(text.length - digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** Checks that `amount` is an exact integer within range; `min` is 1 for intents, 0 for quotes. */
export function assertAmount(amount: number, param: string, min = 1): void {
  if (!Number.isSafeInteger(amount) || amount < min) {
    throw invalidParameter(param, `${param} must be an integer of minor units from ${min} to ${MAX_AMOUNT}.`);
  }
}

export function assertCurrency(currency: string, param = 'currency'): void {
  if (!isKnownCurrency(currency)) {
    throw invalidParameter(param, `${param} must be an ISO 4217 currency code such as THB; '${currency}' is not one.`);
  }
}

/**
 * `value × numerator / denominator`, rounded half-even to an integer, exactly (BigInt: the product
 * of two amounts passes 2^53). All three are non-negative integers, the denominator positive.
 */
export function mulDivHalfEven(value: number, numerator: number, denominator: number): number {
  const product = BigInt(value) * BigInt(numerator);
  const divisor = BigInt(denominator);
  const quotient = product / divisor;
  const twiceRemainder = (product % divisor) * 2n;
  const roundUp = twiceRemainder > divisor || (twiceRemainder === divisor && quotient % 2n === 1n);
  return Number(roundUp ? quotient + 1n : quotient);
}
