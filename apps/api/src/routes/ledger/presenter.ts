import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { MerchantBalance, NextSettlement } from '@payments/core';
import { exactJson } from '../../http/exact-json';
import { components, constant, currency, int64, object, ref } from '../../openapi/json-schema';

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
        ? { amount: next.amount, currency, trigger: next.trigger, scheduled_for: next.scheduledFor ? Math.floor(next.scheduledFor.getTime() / 1000) : null }
        : { amount: 0n, currency, trigger: next.trigger, scheduled_for: null },
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
    ['amount', 'currency', 'trigger', 'scheduled_for'],
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
        type: ['integer', 'null'],
        description:
          'Unix seconds: when the schedule makes it (the end of the current period, in UTC; or now when the batch of the last complete period is still to be made, on the worker’s next pass). null for `manual`, and when nothing would be paid.',
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
        next_settlement: [{ amount: 1279319, currency: 'THB', trigger: 'scheduled', scheduled_for: 1788912000 }],
      },
    ],
  },
});

/** The balance answer: exact JSON integers, whatever their size. */
export function balanceResponse(h: ResponseToolkit, balance: MerchantBalance, next: NextSettlement): ResponseObject {
  return h.response(exactJson(presentBalance(balance, next))).type('application/json; charset=utf-8');
}
