import { Decimal } from 'decimal.js';
import { findPaymentMethod, PAYMENT_METHODS } from '../../catalog';
import { CoreError, invalidParameter, isKnownCurrency, isRecord, MAX_AMOUNT, type Money } from '../../common';
import { convertAmount } from './fx';

/** Private constructor (see fx.ts): nobody else's decimal.js settings reach our money math. */
const Dec = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -100, toExpPos: 100 });

/**
 * What the platform charges for one successful payment by a method (docs/fx.md, Fees),
 * in the merchant's settlement currency: `percent` of the amount plus `fixed`.
 */
export interface FeeRule {
  /** Percent of the amount as a decimal string, 0 to 100 ("1.65"). */
  readonly percent: string;
  /** Minor units per settlement currency (`{THB: 1000}`); a currency not listed adds 0. */
  readonly fixed: Readonly<Record<string, number>>;
}

/** A fee rule per payment method of the catalog. */
export type FeeSchedule = Readonly<Record<string, FeeRule>>;

/**
 * The fees when configuration names none (`PAYMENTS_FEES` overrides them per method):
 * QR payments cost less than wallets, whose issuers charge the platform more.
 */
export const DEFAULT_FEE_SCHEDULE: FeeSchedule = Object.freeze({
  promptpay: { percent: '1.65', fixed: {} },
  paynow: { percent: '1.3', fixed: {} },
  duitnow: { percent: '1.5', fixed: {} },
  qris: { percent: '0.7', fixed: {} },
  gcash: { percent: '2.3', fixed: {} },
  truemoney: { percent: '2', fixed: {} },
  alipay_plus: { percent: '2.8', fixed: {} },
});

const PERCENT_PATTERN = /^(?:0|[1-9][0-9]{0,2})(?:\.[0-9]{1,6})?$/;

function ruleFor(method: string, schedule: FeeSchedule): FeeRule {
  const rule = Object.prototype.hasOwnProperty.call(schedule, method) ? schedule[method] : undefined;
  if (!rule) throw invalidParameter('payment_method', `No fee is configured for payment method '${method}'.`);
  return rule;
}

/**
 * The fee on `amount` minor units of `currency` paid by `method`: `percent` of the amount rounded
 * half-even to minor units, plus the rule's fixed part for `currency`, and never more than the
 * amount itself (a fee cannot make the net negative). Throws 400 `invalid_parameter`
 * (`payment_method`) for a method the schedule does not price.
 */
export function computeFee(amount: number, currency: string, method: string, schedule: FeeSchedule = DEFAULT_FEE_SCHEDULE): Money {
  if (!Number.isSafeInteger(amount) || amount < 0) throw invalidParameter('amount', `amount must be an integer of minor units from 0 to ${MAX_AMOUNT}.`);
  const rule = ruleFor(method, schedule);
  const percentPart = new Dec(amount).times(new Dec(rule.percent)).dividedBy(100).toDecimalPlaces(0, Decimal.ROUND_HALF_EVEN);
  const fixed = Object.prototype.hasOwnProperty.call(rule.fixed, currency) ? rule.fixed[currency] : 0;
  const fee = Dec.min(percentPart.plus(fixed), amount);
  return { amount: fee.toNumber(), currency };
}

/** `gross` less `fee`, both in one currency. */
export function netOf(gross: Money, fee: Money): Money {
  if (gross.currency !== fee.currency) {
    throw new CoreError('api_error', 'internal', `A ${fee.currency} fee cannot be taken from a ${gross.currency} amount.`);
  }
  return { amount: gross.amount - fee.amount, currency: gross.currency };
}

/** What one successful payment is worth to the merchant, all in the settlement currency. */
export interface SettlementBreakdown {
  /** The payment converted to the settlement currency (itself when already in it). */
  readonly gross: Money;
  readonly fee: Money;
  /** gross − fee. */
  readonly net: Money;
}

/**
 * Fee and net of a payment of `amount` minor units of `currency` by `method`, in
 * `settlementCurrency`. A payment in another currency is first converted at `rate` (units of the
 * settlement currency per unit of `currency`: the intent's locked rate), rounded half-even; a
 * missing rate then is a bug and throws. Fee and net are computed on the converted amount.
 */
export function settlementBreakdown(input: {
  amount: number;
  currency: string;
  settlementCurrency: string;
  method: string;
  rate?: string;
  schedule?: FeeSchedule;
}): SettlementBreakdown {
  const { amount, currency, settlementCurrency } = input;
  let grossAmount = amount;
  if (currency !== settlementCurrency) {
    if (input.rate === undefined) {
      throw new CoreError('api_error', 'internal', `Converting ${currency} to ${settlementCurrency} needs the locked rate.`);
    }
    grossAmount = convertAmount(amount, currency, settlementCurrency, input.rate);
  }
  const gross = { amount: grossAmount, currency: settlementCurrency };
  const fee = computeFee(grossAmount, settlementCurrency, input.method, input.schedule ?? DEFAULT_FEE_SCHEDULE);
  return { gross, fee, net: netOf(gross, fee) };
}

/**
 * Reads a fee schedule override (`PAYMENTS_FEES`: `{"promptpay": {"percent": "1.5", "fixed":
 * {"THB": 500}}}`) and lays it over `base`: each method named replaces its rule whole (an absent
 * `fixed` is none). Refuses (CoreError `invalid_fee_schedule`, validation) a method outside the
 * catalog, a percent that is not a decimal string from 0 to 100, a fixed part that is not a
 * whole non-negative number of minor units of an ISO 4217 currency, and any other key. The
 * result prices every catalog method.
 */
export function parseFeeSchedule(override: unknown, base: FeeSchedule = DEFAULT_FEE_SCHEDULE): FeeSchedule {
  const refuse = (message: string): never => {
    throw new CoreError('invalid_fee_schedule', 'validation', message);
  };
  if (!isRecord(override)) return refuse('The fee schedule must be an object keyed by payment method.');
  const merged: Record<string, FeeRule> = { ...base };
  for (const [method, value] of Object.entries(override)) {
    if (!findPaymentMethod(method)) refuse(`Fee schedule: '${method}' is not a payment method of the catalog.`);
    if (!isRecord(value)) return refuse(`Fee schedule: ${method} must be {percent, fixed?}.`);
    const { percent, fixed = {}, ...rest } = value;
    const extra = Object.keys(rest);
    if (extra.length > 0) refuse(`Fee schedule: ${method} has unknown field '${extra[0]}'.`);
    if (typeof percent !== 'string' || !PERCENT_PATTERN.test(percent) || new Dec(percent).greaterThan(100)) {
      return refuse(`Fee schedule: ${method}.percent must be a decimal string between "0" and "100" such as "1.65".`);
    }
    if (!isRecord(fixed)) return refuse(`Fee schedule: ${method}.fixed must map currencies to minor units.`);
    const fixedUnits: Record<string, number> = {};
    for (const [currency, units] of Object.entries(fixed)) {
      if (!isKnownCurrency(currency)) refuse(`Fee schedule: ${method}.fixed: '${currency}' is not an ISO 4217 currency code.`);
      if (typeof units !== 'number' || !Number.isSafeInteger(units) || units < 0)
        return refuse(`Fee schedule: ${method}.fixed.${currency} must be whole minor units, 0 or more.`);
      fixedUnits[currency] = units;
    }
    merged[method] = Object.freeze({ percent, fixed: Object.freeze(fixedUnits) });
  }
  for (const entry of PAYMENT_METHODS) {
    if (!merged[entry.method]) refuse(`Fee schedule: no fee for payment method '${entry.method}'.`);
  }
  return Object.freeze(merged);
}
