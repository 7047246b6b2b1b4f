import type { Command } from '../command.js';
import { ID, optionalString, positional, requiredString } from '../values.js';
import { IDEMPOTENCY_OPTION, printList, printObject, requestOptions } from './common.js';

export const attemptCommands: Command[] = [
  {
    name: 'attempts create',
    summary: "Place an attempt at a channel; next_action holds the payer's credential.",
    args: '<payment_intent>',
    options: {
      'payment-method': { type: 'string', description: 'promptpay, paynow, duitnow, qris, gcash, truemoney, alipay_plus (required).', valueName: 'method' },
      channel: { type: 'string', description: 'simulator or rest (default: the intent preference, else the first that fits).', valueName: 'channel' },
      ...IDEMPOTENCY_OPTION,
    },
    examples: ['payments attempts create pi_123 --payment-method promptpay'],
    async run(context) {
      const id = positional(context, 0, 'payment_intent', ID.paymentIntent);
      const channel = optionalString(context.values, 'channel');
      const attempt = await context
        .client()
        .paymentIntents.attempts.create(
          id,
          { payment_method: requiredString(context.values, 'payment-method'), ...(channel ? { channel } : {}) },
          requestOptions(context),
        );
      printObject(context, attempt);
    },
  },
  {
    name: 'attempts list',
    summary: "List an intent's attempts, oldest first.",
    args: '<payment_intent>',
    examples: ['payments attempts list pi_123'],
    async run(context) {
      const list = context.client().paymentIntents.attempts.list(positional(context, 0, 'payment_intent', ID.paymentIntent));
      await printList(context, list, ['ID', 'STATUS', 'AMOUNT', 'CURRENCY', 'METHOD', 'FAILURE', 'CREATED'], (a) => [
        a.id,
        a.status,
        a.amount,
        a.currency,
        a.payment_method,
        a.failure_code,
        a.created,
      ]);
    },
  },
];
