import { REFUND_REASONS, REFUND_STATUSES, type RefundCreateParams } from '@payments/sdk';
import type { Command } from '../command.js';
import { ID, keyValuePairs, oneOf, optionalInteger, optionalString, positional, requiredString } from '../values.js';
import { given, IDEMPOTENCY_OPTION, LIST_OPTIONS, listParams, printList, printObject, requestOptions } from './common.js';

export const refundCommands: Command[] = [
  {
    name: 'refunds create',
    summary: 'Refund a paid payment intent, in whole or in part.',
    options: {
      'payment-intent': { type: 'string', description: 'The succeeded or channel_settled intent to refund (required).', valueName: 'pi' },
      amount: { type: 'string', description: "Minor units of the intent's currency (default: all that is not refunded yet).", valueName: 'n' },
      reason: { type: 'string', description: `${REFUND_REASONS.join(', ')}.`, valueName: 'reason' },
      metadata: { type: 'string', multiple: true, description: 'key=value, repeatable.', valueName: 'k=v' },
      ...IDEMPOTENCY_OPTION,
    },
    examples: ['payments refunds create --payment-intent pi_123 --amount 5000 --reason requested_by_customer'],
    notes: 'The refund is pending until the channel reports (in test mode on the next worker tick); amounts ending in 06 are declined in test mode.',
    async run(context) {
      const v = context.values;
      const params: RefundCreateParams = { payment_intent: requiredString(v, 'payment-intent') };
      const amount = optionalInteger(v, 'amount', 1);
      const reason = oneOf(v, 'reason', REFUND_REASONS);
      const metadata = keyValuePairs(v, 'metadata');
      if (amount !== undefined) params.amount = amount;
      if (reason) params.reason = reason;
      if (metadata) params.metadata = metadata;
      printObject(context, await context.client().refunds.create(params, requestOptions(context)));
    },
  },
  {
    name: 'refunds get',
    summary: 'Show one refund.',
    args: '<refund>',
    examples: ['payments refunds get re_ABC234 --json'],
    async run(context) {
      printObject(context, await context.client().refunds.retrieve(positional(context, 0, 'refund', ID.refund)));
    },
  },
  {
    name: 'refunds list',
    summary: 'List refunds, newest first.',
    options: {
      ...LIST_OPTIONS,
      'payment-intent': { type: 'string', description: 'Only the refunds of this intent.', valueName: 'pi' },
      status: { type: 'string', description: `Only this status: ${REFUND_STATUSES.join(', ')}.`, valueName: 'status' },
    },
    examples: ['payments refunds list --payment-intent pi_123 --limit 5'],
    async run(context) {
      const list = context.client().refunds.list({
        ...listParams(context),
        ...given('status', oneOf(context.values, 'status', REFUND_STATUSES)),
        ...given('payment_intent', optionalString(context.values, 'payment-intent')),
      });
      await printList(context, list, ['ID', 'STATUS', 'PAYMENT_INTENT', 'AMOUNT', 'CURRENCY', 'REASON', 'CREATED'], (r) => [
        r.id,
        r.status,
        r.payment_intent,
        r.amount,
        r.currency,
        r.reason,
        r.created,
      ]);
    },
  },
];
