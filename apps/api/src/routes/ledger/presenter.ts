import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { MerchantBalance } from '@payments/core';
import { exactJson } from '../../http/exact-json';
import { components, constant, currency, int64, object, ref } from '../../openapi/json-schema';

/**
 * Balance as the API shows it (schema Balance in docs/openapi.json): three buckets of Money, one
 * entry per currency. The amounts are BigInt (a sum of many payments may pass 2^53 − 1) and go
 * out as exact JSON integers (`exactJson`), never as rounded doubles.
 */
function presentBalance(balance: MerchantBalance): Record<string, unknown> {
  return { object: 'balance', available: balance.available, pending: balance.pending, dispute_hold: balance.dispute_hold };
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
  Balance: {
    ...object(
      ['object', 'available', 'pending', 'dispute_hold'],
      {
        object: { ...constant('balance'), description: 'Always `balance`.' },
        available: {
          type: 'array',
          items: ref('BalanceAmount'),
          description:
            'What a settlement may pay out, per currency: released nets less refunds and lost-dispute fees. May be negative; the next settlement nets it.',
        },
        pending: { type: 'array', items: ref('BalanceAmount'), description: 'Nets of paid payments whose release timer has not fired yet, per currency.' },
        dispute_hold: { type: 'array', items: ref('BalanceAmount'), description: 'Nets frozen by open disputes, per currency.' },
      },
      'What the ledger holds for the key’s merchant and mode.',
    ),
    examples: [
      {
        object: 'balance',
        available: [{ amount: 1254731, currency: 'THB' }],
        pending: [{ amount: 24588, currency: 'THB' }],
        dispute_hold: [{ amount: 0, currency: 'THB' }],
      },
    ],
  },
});

/** The balance answer: exact JSON integers, whatever their size. */
export function balanceResponse(h: ResponseToolkit, balance: MerchantBalance): ResponseObject {
  return h.response(exactJson(presentBalance(balance))).type('application/json; charset=utf-8');
}
