import {
  ListPaymentIntents,
  minorUnits,
  MONEY_STATUSES,
  payableCurrencies,
  PAYMENT_INTENT_LIMITS,
  PAYMENT_INTENT_STATUSES,
  PaymentMoneyStatuses,
  type Money,
} from '@payments/core';
import Joi from 'joi';
import { dateOrDateTime, instantOf } from '../../http/date-range';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { oneOf } from '../../http/typed-schema';
import { scopeIn } from '../../plugins/dashboard/actor';
import { limit, pageOf, paymentIntentId, withMode } from '../schemas';
import { PAYMENT_SCHEMAS, presentDashboardPaymentIntent } from './presenters';

/** An amount in major units: digits (groups of three may be split by commas), an optional fraction. */
const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

const paymentIntentsQuery = withMode({
  limit,
  starting_after: paymentIntentId,
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
});

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

/** *mode*: the account's intents, newest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents',
  access: 'dashboard',
  action: 'payments.read',
  validate: { query: paymentIntentsQuery },
  openapi: {
    operationId: 'listPaymentIntents',
    summary: 'List payment intents, newest first',
    description:
      'Filters combine: `status`; `created_gte` and `created_lte`, inclusive, each a date or a date-time (a date as `created_lte` takes in its whole day, UTC); ' +
      '`q`, the intent of that id and those whose merchant_order_id starts with it, case-insensitive (`ord-24` finds `ORD-24053`); `amount`, in major units, and `currency`; ' +
      '`money_status` (refunded, partially_refunded, disputed, dispute_won, dispute_lost). Each intent carries its `money_statuses`. ' +
      '`limit` (1–100, default 20) and `starting_after` page as on /v1.',
    tag: 'Payments',
    success: { status: 200, schema: PAYMENT_SCHEMAS.DashboardPaymentIntentList, description: 'A page of payment intents.' },
  },
  uses: { listPaymentIntents: ListPaymentIntents, paymentMoneyStatuses: PaymentMoneyStatuses },
  handler:
    ({ listPaymentIntents, paymentMoneyStatuses }) =>
    async (request) => {
      const { query } = request;
      const scope = scopeIn(request, query.mode);
      const page = await listPaymentIntents.execute({
        scope,
        filter: {
          status: query.status,
          createdGte: query.created_gte === undefined ? undefined : instantOf(query.created_gte, 'created_gte', false),
          createdLte: query.created_lte === undefined ? undefined : instantOf(query.created_lte, 'created_lte', true),
          idOrOrderIdPrefix: query.q,
          amounts: query.amount === undefined ? undefined : amountsOf(query.amount),
          currency: query.currency,
          moneyStatus: query.money_status,
        },
        page: pageOf(query),
      });
      const statuses = await paymentMoneyStatuses.execute(scope, page.data);
      return presentList(page, (intent) => presentDashboardPaymentIntent(intent, statuses.get(intent.id) ?? []));
    },
});
