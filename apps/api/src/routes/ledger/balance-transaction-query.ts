import { BALANCE_TRANSACTION_ID, BALANCE_TRANSACTION_TYPES, type BalanceTransactionFilter } from '@payments/core';
import { dateOrDateTime, optionalInstant } from '../../http/date-range';
import { oneOf } from '../../http/typed-schema';
import { currency, idOf, limit, paymentIntentId, settlementId, startingAfter } from '../schemas';

export const balanceTransactionId = idOf(BALANCE_TRANSACTION_ID, 'balance transaction id').description('A balance transaction id, `txn_…`.');

/** The filters of a list of balance transactions (and of its CSV export), the same on /v1 and on the dashboard. */
export const balanceTransactionFilterFields = {
  type: oneOf(BALANCE_TRANSACTION_TYPES).description('Only lines of this type.'),
  payment_intent: paymentIntentId.description('Only the lines of this payment intent (its payment, release, refunds and disputes).'),
  settlement: settlementId.description('Only the lines whose available money this settlement covers, its own `settlement` line included.'),
  currency: currency.description('Only lines in this settlement currency (ISO 4217, upper case).'),
  'created[gte]': dateOrDateTime.description('Created at or after: a date (its first instant, UTC) or a date-time.'),
  'created[lte]': dateOrDateTime.description('Created at or before: a date (its whole day, UTC, counts) or a date-time (its whole second, or minute, counts).'),
  'available_on[gte]': dateOrDateTime.description('`available_on` at or after this date or date-time; lines without `available_on` are left out.'),
  'available_on[lte]': dateOrDateTime.description(
    '`available_on` at or before this date (its whole day) or date-time; lines without `available_on` are left out.',
  ),
};

/** The filters and paging of a list of balance transactions, the same on /v1 and on the dashboard. */
export const balanceTransactionListFields = { limit, starting_after: startingAfter(balanceTransactionId), ...balanceTransactionFilterFields };

/** The filter a validated list query asks for; an impossible date is 400 naming its parameter. */
export function balanceTransactionFilter(query: {
  readonly type?: BalanceTransactionFilter['type'];
  readonly payment_intent?: string;
  readonly settlement?: string;
  readonly currency?: string;
  readonly 'created[gte]'?: string;
  readonly 'created[lte]'?: string;
  readonly 'available_on[gte]'?: string;
  readonly 'available_on[lte]'?: string;
}): BalanceTransactionFilter {
  return {
    type: query.type,
    paymentIntentId: query.payment_intent,
    settlementId: query.settlement,
    currency: query.currency,
    createdGte: optionalInstant(query['created[gte]'], 'created[gte]', false),
    createdLte: optionalInstant(query['created[lte]'], 'created[lte]', true),
    availableOnGte: optionalInstant(query['available_on[gte]'], 'available_on[gte]', false),
    availableOnLte: optionalInstant(query['available_on[lte]'], 'available_on[lte]', true),
  };
}

/** What the list's description says of its filters, on both sides. */
export const FILTERS_DESCRIPTION =
  'Filters combine: `type`, `payment_intent`, `settlement`, `currency`; `created[gte]`/`created[lte]` and `available_on[gte]`/`available_on[lte]`, inclusive, ' +
  'each a date or a date-time (a date as an upper bound takes in its whole day, UTC). ';
