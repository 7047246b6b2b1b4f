import { CoreError, isRateString } from '@payments/core';
import { Decimal } from 'decimal.js';

/** Mid rates against one base currency: `rates[X]` is units of X for one unit of `base`. */
export interface RateTable {
  readonly base: string;
  /** When the rates were observed (ISO 8601 date or date-time). */
  readonly asOf: string;
  readonly rates: Readonly<Record<string, string>>;
}

/** Significant digits a cross rate keeps (rounded half-even): far past what a quote shows. */
export const CROSS_RATE_SIGNIFICANT_DIGITS = 20;

const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -100, toExpPos: 100 });

function baseRate(table: RateTable, currency: string): string | undefined {
  if (currency === table.base) return '1';
  return Object.prototype.hasOwnProperty.call(table.rates, currency) ? table.rates[currency] : undefined;
}

/**
 * Units of `to` for one unit of `from`, through the table's base: `rates[to] / rates[from]`,
 * rounded half-even to {@link CROSS_RATE_SIGNIFICANT_DIGITS} significant digits, as a plain
 * decimal string. Throws CoreError `unsupported_currency_pair` (validation) naming `from` or
 * `to`, whichever the table lacks.
 */
export function crossRate(table: RateTable, from: string, to: string): string {
  const fromRate = baseRate(table, from);
  if (fromRate === undefined) throw unsupported(from, to, 'from');
  const toRate = baseRate(table, to);
  if (toRate === undefined) throw unsupported(from, to, 'to');
  if (from === to) return '1';
  return new Dec(toRate).dividedBy(new Dec(fromRate)).toSignificantDigits(CROSS_RATE_SIGNIFICANT_DIGITS).toFixed();
}

function unsupported(from: string, to: string, param: 'from' | 'to'): CoreError {
  const missing = param === 'from' ? from : to;
  return new CoreError('unsupported_currency_pair', 'validation', `No FX rate for ${from} to ${to}: ${missing} is not quoted.`, { param });
}

/**
 * Checks a table before it is served: a three-letter base, every key a three-letter code and every
 * rate a positive decimal string (never a number). Returns what is wrong, or undefined.
 */
export function tableProblem(table: RateTable): string | undefined {
  if (!/^[A-Z]{3}$/.test(table.base)) return 'base is not a currency code';
  for (const [currency, rate] of Object.entries(table.rates)) {
    if (!/^[A-Z]{3}$/.test(currency)) return 'a rate key is not a currency code';
    if (!isRateString(rate)) return `the rate of ${currency} is not a positive decimal string`;
    if (currency === table.base && !new Dec(rate).equals(1)) return 'the base is not quoted at 1';
  }
  return undefined;
}
