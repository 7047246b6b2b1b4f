import type { Command } from '../command.js';
import { table } from '../output.js';
import { optionalInteger, optionalString, requiredString } from '../values.js';
import { printObject } from './common.js';

export const balanceCommands: Command[] = [
  {
    name: 'balance',
    summary: 'Show the balance: available, pending and dispute_hold, per currency.',
    examples: ['payments balance', 'payments balance --json'],
    async run(context) {
      const balance = await context.client().balance.retrieve();
      context.out.data(balance, () => {
        const buckets = ['available', 'pending', 'dispute_hold'] as const;
        const currencies = [...new Set(buckets.flatMap((bucket) => balance[bucket].map((m) => m.currency)))].sort();
        if (currencies.length === 0) return '(empty)';
        return table(
          ['CURRENCY', 'AVAILABLE', 'PENDING', 'DISPUTE_HOLD'],
          // String(): amounts past 2^53 − 1 are BigInt, printed exactly.
          currencies.map((currency) => [currency, ...buckets.map((bucket) => String(balance[bucket].find((m) => m.currency === currency)?.amount ?? 0))]),
        );
      });
    },
  },
  {
    name: 'fx quote',
    summary: 'An indicative FX quote (mid rate plus spread), with an estimate for --amount.',
    options: {
      from: { type: 'string', description: 'Currency paid in (required).', valueName: 'code' },
      to: { type: 'string', description: 'Currency settled in (required).', valueName: 'code' },
      amount: { type: 'string', description: 'Minor units of --from to estimate.', valueName: 'n' },
      'payment-method': { type: 'string', description: 'Method whose lock point applies.', valueName: 'method' },
    },
    examples: ['payments fx quote --from USD --to THB --amount 1000'],
    async run(context) {
      const amount = optionalInteger(context.values, 'amount', 0);
      const method = optionalString(context.values, 'payment-method');
      const quote = await context.client().fx.quotes.retrieve({
        from: requiredString(context.values, 'from').toUpperCase(),
        to: requiredString(context.values, 'to').toUpperCase(),
        ...(amount === undefined ? {} : { amount }),
        ...(method ? { payment_method: method } : {}),
      });
      printObject(context, quote);
    },
  },
];
