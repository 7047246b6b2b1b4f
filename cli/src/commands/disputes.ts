import type { DisputeStatus } from '@payments/sdk';
import type { Command } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { money } from '../output.js';
import { ID, keyValuePairs, oneOf, positional } from '../values.js';
import { given, IDEMPOTENCY_OPTION, LIST_OPTIONS, listParams, printList, printObject, requestOptions } from './common.js';

const DISPUTE_STATUSES: readonly DisputeStatus[] = ['opened', 'under_review', 'won', 'lost'];

export const disputeCommands: Command[] = [
  {
    name: 'disputes list',
    summary: 'List disputes, newest first.',
    options: { ...LIST_OPTIONS, status: { type: 'string', description: `Only this status: ${DISPUTE_STATUSES.join(', ')}.`, valueName: 'status' } },
    examples: ['payments disputes list --status opened'],
    async run(context) {
      const list = context.client().disputes.list({ ...listParams(context), ...given('status', oneOf(context.values, 'status', DISPUTE_STATUSES)) });
      await printList(context, list, ['ID', 'STATUS', 'PAYMENT_INTENT', 'AMOUNT', 'CURRENCY', 'HELD', 'DUE_BY'], (d) => [
        d.id,
        d.status,
        d.payment_intent,
        d.amount,
        d.currency,
        money(d.held),
        d.due_by,
      ]);
    },
  },
  {
    name: 'disputes get',
    summary: 'Show one dispute.',
    args: '<dispute>',
    examples: ['payments disputes get dp_123'],
    async run(context) {
      printObject(context, await context.client().disputes.retrieve(positional(context, 0, 'dispute', ID.dispute)));
    },
  },
  {
    name: 'disputes evidence',
    summary: 'Submit evidence (merged key by key into what the dispute holds).',
    args: '<dispute>',
    options: { evidence: { type: 'string', multiple: true, description: 'key=value, repeatable (at least one).', valueName: 'k=v' }, ...IDEMPOTENCY_OPTION },
    examples: ['payments disputes evidence dp_123 --evidence tracking_number=TH123 --evidence note="delivered"'],
    async run(context) {
      const id = positional(context, 0, 'dispute', ID.dispute);
      const evidence = keyValuePairs(context.values, 'evidence');
      if (!evidence) throw new UsageError('--evidence key=value is required.');
      printObject(context, await context.client().disputes.submitEvidence(id, { evidence }, requestOptions(context)));
    },
  },
];
