import {
  ID_PATTERNS,
  minorUnits,
  MONEY_STATUSES,
  payableCurrencies,
  PAYMENT_INTENT_LIMITS,
  PAYMENT_INTENT_STATUSES,
  type Money,
  type MoneyStatus,
  type PaymentIntentFilter,
  type PaymentIntentStatus,
} from '@payments/core';
import Joi from 'joi';
import { dateOrDateTime, optionalInstant } from '../../http/date-range';
import { oneOf } from '../../http/typed-schema';
import { limit, paymentIntentId, startingAfter } from '../schemas';

/** The filters of `GET /v1/payment_intents`, and of its CSV export. */
export const paymentIntentFilterFields = {
  status: oneOf(PAYMENT_INTENT_STATUSES).description('Only intents in this status.'),
  merchant_order_id: Joi.string().min(1).max(PAYMENT_INTENT_LIMITS.merchantOrderIdLength).description('Only the intent with this order reference (exact).'),
  'created[gte]': Joi.date().iso().description('Only intents created at or after this ISO 8601 instant.'),
};

/** The list's query: its filters and paging. */
export const paymentIntentListFields = {
  limit,
  starting_after: startingAfter(Joi.string().pattern(ID_PATTERNS.payment_intent, 'payment intent id')),
  ...paymentIntentFilterFields,
};

/** The filter a validated /v1 query asks for. */
export function paymentIntentFilter(query: {
  readonly status?: PaymentIntentStatus;
  readonly merchant_order_id?: string;
  readonly 'created[gte]'?: Date;
}): PaymentIntentFilter {
  return { status: query.status, merchantOrderId: query.merchant_order_id, createdGte: query['created[gte]'] };
}

/** An amount in major units: digits (groups of three may be split by commas), an optional fraction. */
const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

/** The filters of the dashboard's list of payment intents, and of its CSV export. */
export const dashboardPaymentIntentFilterFields = {
  status: oneOf(PAYMENT_INTENT_STATUSES),
  created_gte: dateOrDateTime.description('Created at or after: a date (its first instant, UTC) or a date-time.'),
  created_lte: dateOrDateTime.description('Created at or before: a date (its whole day, UTC, counts) or a date-time (its whole second, or minute, counts).'),
  q: Joi.string()
    .min(1)
    .max(PAYMENT_INTENT_LIMITS.merchantOrderIdLength)
    .description('The intent of this exact id, and the intents whose merchant_order_id starts with this, whatever the case.'),
  amount: Joi.string()
    .max(24)
    .pattern(AMOUNT, 'amount in major units')
    .description('Only intents of this amount, in major units as a person writes it (`540`, `540.5`, `1,250.50`): in each currency whose digits can hold it.'),
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/, 'ISO 4217 code')
    .description('Only intents in this currency.'),
  money_status: oneOf(MONEY_STATUSES).description('Only intents with this money status (see `money_statuses`).'),
};

/** The dashboard list's query: its filters and paging. */
export const dashboardPaymentIntentListFields = { limit, starting_after: paymentIntentId, ...dashboardPaymentIntentFilterFields };

/**
 * The amount a person typed, in each payable currency whose minor digits can hold it: `540` is
 * 54000 THB minor units and 540 of a currency without decimals; `540.5` is no amount of the latter.
 */
function amountsOf(text: string): Money[] {
  const [, whole = '', fraction = ''] = AMOUNT.exec(text) ?? [];
  return payableCurrencies().flatMap((currency) => {
    const digits = minorUnits(currency);
    const significant = fraction.replace(/0+$/, '');
    if (significant.length > digits) return [];
    const minor = BigInt(whole.replace(/,/g, '') + significant.padEnd(digits, '0'));
    return minor >= 1n && minor <= BigInt(Number.MAX_SAFE_INTEGER) ? [{ amount: Number(minor), currency }] : [];
  });
}

/** The filter a validated dashboard query asks for; an impossible date is 400 naming its parameter. */
export function dashboardPaymentIntentFilter(query: {
  readonly status?: PaymentIntentStatus;
  readonly created_gte?: string;
  readonly created_lte?: string;
  readonly q?: string;
  readonly amount?: string;
  readonly currency?: string;
  readonly money_status?: MoneyStatus;
}): PaymentIntentFilter {
  return {
    status: query.status,
    createdGte: optionalInstant(query.created_gte, 'created_gte', false),
    createdLte: optionalInstant(query.created_lte, 'created_lte', true),
    idOrOrderIdPrefix: query.q,
    amounts: query.amount === undefined ? undefined : amountsOf(query.amount),
    currency: query.currency,
    moneyStatus: query.money_status,
  };
}
