import { code as iso4217 } from 'currency-codes';
import { CoreError, invalidParameter } from '../errors/core-error';

/** An amount in integer minor units of its currency (satang for THB, yen for JPY). Never a float. */
export interface Money {
  readonly amount: number;
  readonly currency: string;
}

/** The largest amount we accept: JavaScript numbers are exact integers up to 2^53 - 1. */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/** True when `currency` is an active ISO 4217 code. */
export function isKnownCurrency(currency: string): boolean {
  return CURRENCY_PATTERN.test(currency) && iso4217(currency) !== undefined;
}

/** Minor-unit exponent of an ISO 4217 currency (THB 2, JPY 0, KWD 3). */
export function minorUnits(currency: string): number {
  const entry = iso4217(currency);
  if (!entry) throw new CoreError('invalid_currency', 'validation', `Unknown currency '${currency}'.`, { param: 'currency' });
  return entry.digits;
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
