import type { Command } from '../command.js';
import { money } from '../output.js';
import { ID, positional } from '../values.js';
import { IDEMPOTENCY_OPTION, LIST_OPTIONS, listParams, printList, printObject, requestOptions } from './common.js';

export const settlementCommands: Command[] = [
  {
    name: 'settlements create',
    summary: 'Ask for a payout of everything available (merchants on the manual schedule only).',
    options: { ...IDEMPOTENCY_OPTION },
    examples: ['payments settlements create'],
    notes: 'In test mode the simulated bank pays at once, so the answer is already paid.',
    async run(context) {
      printObject(context, await context.client().settlements.create(requestOptions(context)));
    },
  },
  {
    name: 'settlements get',
    summary: 'Show one settlement.',
    args: '<settlement>',
    examples: ['payments settlements get st_ABC234'],
    async run(context) {
      printObject(context, await context.client().settlements.retrieve(positional(context, 0, 'settlement', ID.settlement)));
    },
  },
  {
    name: 'settlements list',
    summary: 'List settlements, newest first.',
    options: { ...LIST_OPTIONS },
    examples: ['payments settlements list --limit 5'],
    async run(context) {
      const list = context.client().settlements.list(listParams(context));
      await printList(context, list, ['ID', 'STATUS', 'AMOUNT', 'PAYMENTS', 'PERIOD_START', 'PERIOD_END'], (s) => [
        s.id,
        s.status,
        money(s.amount),
        s.payments,
        s.period_start,
        s.period_end,
      ]);
    },
  },
];
