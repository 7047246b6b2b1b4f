import { Decimal } from 'decimal.js';
import { CoreError, invalidParameter, MAX_AMOUNT, minorUnits } from '../../common';

/**
 * Money arithmetic on decimals. A private Decimal constructor, so no other user of decimal.js can
 * change our precision or rounding (the library's default constructor is global and mutable).
 * 80 significant digits: an amount below 2^53 (16 digits) times a rate of up to 40 digits is
 * exact before the one rounding to minor units.
 */
const Dec = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -100, toExpPos: 100 });
type Dec = InstanceType<typeof Dec>;

/** A rate on the wire and in storage: plain decimal digits, no sign, no exponent, no float. */
export const DECIMAL_STRING_PATTERN = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** Longest rate string we read; longer ones are refused rather than silently rounded. */
export const MAX_RATE_LENGTH = 40;

/** Significant digits a quoted rate keeps after the spread. */
export const RATE_SIGNIFICANT_DIGITS = 12;

/** Spreads from 0 up to (not including) 100 %, in whole basis points. */
export const MAX_SPREAD_BPS = 9999;

/** True when `value` is a positive decimal string we accept as a rate ("35.12", "0.0285"). */
export function isRateString(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_RATE_LENGTH && DECIMAL_STRING_PATTERN.test(value) && new Dec(value).greaterThan(0);
}

function parseRate(rate: string): Dec {
  if (!isRateString(rate)) {
    // Rates come from a rate source or a stored lock, never from a merchant: a bad one is our bug.
    throw new CoreError('api_error', 'internal', `Not a usable FX rate: '${String(rate).slice(0, MAX_RATE_LENGTH)}'.`);
  }
  return new Dec(rate);
}

/** A decimal as a plain string: no exponent, no trailing zeros ("34.9444", "0.0285", "1"). */
function formatDecimal(value: Dec): string {
  // toFixed() never uses exponent notation; Decimal keeps no trailing zeros, so nothing to trim but "-0".
  const text = new Dec(value).toFixed();
  return text === '-0' ? '0' : text;
}

/**
 * The quoted rate: the mid rate less the platform's spread, so the merchant gets fewer units of
 * `to` for each unit of `from` (`mid × (1 − spreadBps / 10 000)`), cut (never rounded up) to
 * {@link RATE_SIGNIFICANT_DIGITS} significant digits. `applySpread("35.12", 50)` is "34.9444".
 */
export function applySpread(mid: string, spreadBps: number): string {
  if (!Number.isInteger(spreadBps) || spreadBps < 0 || spreadBps > MAX_SPREAD_BPS) {
    throw new CoreError('api_error', 'internal', `The FX spread must be whole basis points from 0 to ${MAX_SPREAD_BPS}; got ${spreadBps}.`);
  }
  const quoted = parseRate(mid).times(new Dec(10_000 - spreadBps).dividedBy(10_000));
  return formatDecimal(quoted.toSignificantDigits(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_DOWN));
}

/**
 * Converts `amount` minor units of `from` into minor units of `to` at `rate` (units of `to` per
 * unit of `from`), scaling by each currency's ISO 4217 exponent (JPY 0, THB 2, KWD 3) and
 * rounding half-even once, at the end. Exact for every amount up to 2^53 − 1; a result beyond
 * that is refused as 400 `invalid_parameter` naming `amount`. Negative amounts convert
 * symmetrically.
 */
export function convertAmount(amount: number, from: string, to: string, rate: string): number {
  if (!Number.isSafeInteger(amount)) throw invalidParameter('amount', `amount must be an integer of minor units up to ${MAX_AMOUNT}.`);
  const exponent = minorUnits(to) - minorUnits(from);
  const converted = new Dec(amount).times(parseRate(rate)).times(new Dec(10).pow(exponent));
  const rounded = converted.toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN);
  if (rounded.abs().greaterThan(MAX_AMOUNT)) {
    throw invalidParameter('amount', `amount converts to more than ${MAX_AMOUNT} minor units of ${to}.`);
  }
  return rounded.isZero() ? 0 : rounded.toNumber();
}

/** Compares two non-negative decimal strings (-1, 0, 1) without going through floats. */
export function compareDecimal(a: string, b: string): number {
  for (const value of [a, b]) {
    if (!DECIMAL_STRING_PATTERN.test(value)) throw new CoreError('api_error', 'internal', `Not a decimal string: '${value.slice(0, MAX_RATE_LENGTH)}'.`);
  }
  return new Dec(a).comparedTo(new Dec(b));
}
