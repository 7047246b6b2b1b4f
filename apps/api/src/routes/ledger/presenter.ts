import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';
import {
  BALANCE_TRANSACTION_ID,
  BALANCE_TRANSACTION_TYPES,
  ID_PATTERNS,
  type BalanceTransaction,
  type MerchantBalance,
  type NextSettlement,
} from '@payments/core';
import { exactJson } from '../../http/exact-json';
import { compact, timestamp } from '../../http/presenting';
import { components, constant, currency, dateTime, idMatching, int64, list, object, ref } from '../../openapi/json-schema';

/**
 * Balance as the API shows it (schema Balance in docs/openapi.json): three buckets of Money, one
 * entry per currency. The amounts are BigInt (a sum of many payments may pass 2^53 − 1) and go
 * out as exact JSON integers (`exactJson`), never as rounded doubles.
 */
function presentBalance(balance: MerchantBalance, next: NextSettlement): Record<string, unknown> {
  return {
    object: 'balance',
    available: balance.available,
    pending: balance.pending,
    dispute_hold: balance.dispute_hold,
    // One per currency of the buckets: settlements pay only the settlement currency, so the others show nothing to pay.
    next_settlement: balance.available.map(({ currency }) =>
      currency === next.currency
        ? compact({ amount: next.amount, currency, trigger: next.trigger, scheduled_for: next.scheduledFor && timestamp(next.scheduledFor) })
        : { amount: 0n, currency, trigger: next.trigger },
    ),
  };
}

/** The answer of the balance. */
export const BALANCE_SCHEMAS = components({
  BalanceAmount: object(
    ['amount', 'currency'],
    {
      amount: {
        ...int64,
        description:
          'Exact minor units: a balance sums many payments and may pass 2^53 − 1. It is always written as the digits of the exact integer; ' +
          'a JSON reader that turns numbers into doubles rounds one past 2^53 − 1 (the SDK reads those as BigInt).',
      },
      currency: { ...currency, description: 'ISO 4217 code of the settlement currency the bucket holds.' },
    },
    'A balance bucket in one currency.',
  ),
  NextSettlement: object(
    ['amount', 'currency', 'trigger'],
    {
      amount: {
        ...int64,
        description:
          'What the next settlement would pay, computed as a settlement is made, from what is known now: for `manual`, exactly what POST /v1/settlements (the console’s “Pay out now”) would pay now; ' +
          'for `scheduled`, the batch made at `scheduled_for`, of what is available now and of the payments whose release is due before then (a refund, a dispute or a payment settled meanwhile changes it; ' +
          'a batch past 2^53 − 1 minor units is paid as several settlements, all counted here). 0 when nothing would be paid (nothing waits, or refunds and dispute debits outweigh it). Exact integer, as the buckets.',
      },
      currency: { ...currency, description: 'ISO 4217 code; settlements pay only the settlement currency, so every other currency shows 0.' },
      trigger: {
        type: 'string',
        enum: ['scheduled', 'manual'],
        description: '`manual`: the account settles on request; `scheduled`: on its daily, weekly or monthly schedule.',
      },
      scheduled_for: {
        ...dateTime,
        description:
          'When the schedule makes it (the end of the current period, in UTC; or now when the batch of the last complete period is still to be made, on the worker’s next pass). Absent for `manual`, and when nothing would be paid.',
      },
    },
    'The next settlement in one currency: how much, and when.',
  ),
  Balance: {
    ...object(
      ['object', 'available', 'pending', 'dispute_hold', 'next_settlement'],
      {
        object: { ...constant('balance'), description: 'Always `balance`.' },
        available: {
          type: 'array',
          items: ref('BalanceAmount'),
          description:
            'What settlements may pay out, per currency: released nets less refunds and lost-dispute fees, and what settlements made but not yet paid do not hold. May be negative; the next settlement nets it.',
        },
        pending: { type: 'array', items: ref('BalanceAmount'), description: 'Nets of paid payments whose release timer has not fired yet, per currency.' },
        dispute_hold: { type: 'array', items: ref('BalanceAmount'), description: 'Nets frozen by open disputes, per currency.' },
        next_settlement: {
          type: 'array',
          items: ref('NextSettlement'),
          description: 'What the next settlement will pay, and when, per currency (the currencies of the buckets).',
        },
      },
      'What the ledger holds for the key’s merchant and mode.',
    ),
    examples: [
      {
        object: 'balance',
        available: [{ amount: 1254731, currency: 'THB' }],
        pending: [{ amount: 24588, currency: 'THB' }],
        dispute_hold: [{ amount: 0, currency: 'THB' }],
        next_settlement: [{ amount: 1279319, currency: 'THB', trigger: 'scheduled', scheduled_for: '2026-09-08T00:00:00Z' }],
      },
    ],
  },
});

/** The balance answer: exact JSON integers, whatever their size. */
export function balanceResponse(h: ResponseToolkit, balance: MerchantBalance, next: NextSettlement): ResponseObject {
  return h.response(exactJson(presentBalance(balance, next))).type('application/json; charset=utf-8');
}

/** A balance transaction as the API shows it (schema BalanceTransaction): absent fields are left out. */
export function presentBalanceTransaction(line: BalanceTransaction): Record<string, unknown> {
  return compact({
    id: line.id,
    object: 'balance_transaction',
    type: line.type,
    amount: line.amount,
    fee: line.fee,
    net: line.net,
    currency: line.currency,
    moves: { pending: line.moves.pending, available: line.moves.available, dispute_hold: line.moves.dispute_hold },
    source: line.source,
    payment_intent: line.paymentIntentId,
    available_on: line.availableOn && timestamp(line.availableOn),
    settlement: line.settlementId,
    created: timestamp(line.created),
    exchange: line.exchange && { amount: line.exchange.amount, currency: line.exchange.currency, rate: line.exchange.rate },
  });
}

/** A payment of 1,000.00 USD to a THB merchant, its release due the next day. */
export const BALANCE_TRANSACTION_EXAMPLE = {
  id: 'txn_4187',
  object: 'balance_transaction',
  type: 'payment',
  amount: 3237730,
  fee: 53423,
  net: 3184307,
  currency: 'THB',
  moves: { pending: 3184307, available: 0, dispute_hold: 0 },
  source: 'pi_3kTqZ8cVb2NwX1yLmP0aRs4D',
  payment_intent: 'pi_3kTqZ8cVb2NwX1yLmP0aRs4D',
  available_on: '2026-09-08T00:00:00Z',
  created: '2026-09-07T16:20:00Z',
  exchange: { amount: 100000, currency: 'USD', rate: '32.3773' },
} as const;

/** The answers of balance transactions. */
export const BALANCE_TRANSACTION_SCHEMAS = components({
  BalanceTransactionMoves: object(
    ['pending', 'available', 'dispute_hold'],
    {
      pending: { ...int64, description: 'The signed change of the `pending` bucket, minor units of `currency`.' },
      available: { ...int64, description: 'The signed change of the `available` bucket.' },
      dispute_hold: { ...int64, description: 'The signed change of the `dispute_hold` bucket.' },
    },
    'Which buckets the line moved: the three sum to its `net`.',
  ),
  BalanceTransactionExchange: object(
    ['amount', 'currency', 'rate'],
    {
      amount: { ...int64, description: 'Minor units of `currency` the payer paid (a payment) or got back (a refund, negative; its reversal, positive).' },
      currency: { ...currency, description: 'The currency the payer paid in: the payment intent’s.' },
      rate: {
        type: 'string',
        pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$',
        description: 'The rate the payment’s price locked at, as a decimal string: units of the line’s `currency` for one unit of this `currency`.',
      },
    },
    'The payer’s side of a payment or refund in another currency than the settlement currency.',
  ),
  BalanceTransaction: {
    ...object(
      ['id', 'object', 'type', 'amount', 'fee', 'net', 'currency', 'moves', 'source', 'created'],
      {
        id: {
          type: 'string',
          pattern: BALANCE_TRANSACTION_ID.source,
          description: 'Unique identifier, `txn_…`: the journal transaction it shows. Ids follow the journal’s order and say nothing else.',
        },
        object: { ...constant('balance_transaction'), description: 'Always `balance_transaction`.' },
        type: {
          type: 'string',
          enum: [...BALANCE_TRANSACTION_TYPES],
          description:
            'What moved the money: `payment` (a paid payment’s net enters pending), `release` (pending → available, net 0), `refund`, `refund_reversal` (a refund the channel failed: its debit comes back), ' +
            '`dispute_hold` (a dispute freezes the payment’s money, net 0), `dispute_release` (a won dispute gives it back, net 0), `dispute_loss` (a lost dispute takes it; `fee` is the dispute fee), ' +
            '`settlement` (a payout leaves available), `settlement_failure` (a failed payout comes back), `adjustment` (any other movement of the merchant’s money).',
        },
        amount: {
          ...int64,
          description:
            '`net + fee`, minor units of `currency`: a payment’s gross, a refund’s whole amount (negative), what a lost dispute took (negative), a payout (negative). `amount − fee = net` always.',
        },
        fee: {
          ...int64,
          description:
            'The platform’s fees in the line: a payment’s fee and a lost dispute’s fee (positive), the fee share a refund gives back (negative); 0 for the others.',
        },
        net: {
          ...int64,
          description:
            'What the merchant’s balance gained (negative: lost), all buckets together. The `net` of all lines of a currency is that currency’s available + pending + dispute_hold.',
        },
        currency: { ...currency, description: 'ISO 4217 code of the settlement currency the line moved.' },
        moves: {
          ...ref('BalanceTransactionMoves'),
          description: 'The signed change of each bucket; summed over all lines of a currency, each is that bucket’s balance.',
        },
        source: {
          type: 'string',
          description:
            'The object that caused it: a payment intent (`pi_…`: payment, release), a refund (`re_…`), a dispute (`dp_…`) or a settlement (`st_…`).',
        },
        payment_intent: { ...idMatching(ID_PATTERNS.payment_intent), description: 'The payment whose money it moved; absent for settlements.' },
        available_on: {
          ...dateTime,
          description:
            'When its money is (or was) available: for a payment, its release, or when the release is due once the channel settled it; for a line that moved `available`, its `created`. ' +
            'Absent while a payment’s release is not scheduled yet, and for lines that moved only pending or held money.',
        },
        settlement: {
          ...idMatching(ID_PATTERNS.settlement),
          description: 'The settlement that pays (or, on a `settlement` line, is) its movement of available money, once one covers it.',
        },
        created: { ...dateTime, description: 'When the money moved.' },
        exchange: {
          ...ref('BalanceTransactionExchange'),
          description: 'For a payment or refund whose payer paid in another currency: that amount, its currency and the rate. Absent otherwise.',
        },
      },
      'One movement of the merchant’s money, as the ledger booked it.',
    ),
    examples: [BALANCE_TRANSACTION_EXAMPLE],
  },
  BalanceTransactionList: list('BalanceTransaction', BALANCE_TRANSACTION_EXAMPLE),
});
