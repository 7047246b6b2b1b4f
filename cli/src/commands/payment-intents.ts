import { randomBytes } from 'node:crypto';
import { PAYMENT_INTENT_STATUSES, type PaymentIntent, type PaymentIntentCreateParams } from '@payments/sdk';
import type { Command } from '../command.js';
import type { Cell } from '../output.js';
import { ID, keyValuePairs, oneOf, optionalInteger, optionalString, positional, requiredInteger, requiredString } from '../values.js';
import { given, IDEMPOTENCY_OPTION, LIST_OPTIONS, listParams, printList, printObject, requestOptions } from './common.js';

export function intentRow(pi: PaymentIntent): Cell[] {
  return [pi.id, pi.status, pi.amount, pi.currency, pi.merchant_order_id, pi.created];
}
export const INTENT_HEADERS = ['ID', 'STATUS', 'AMOUNT', 'CURRENCY', 'ORDER', 'CREATED'];

export const paymentIntentCommands: Command[] = [
  {
    name: 'payment-intents create',
    summary: 'Create a payment intent (the answer carries checkout_url, only this once).',
    options: {
      amount: { type: 'string', description: 'Amount in minor units (required; 12345 THB is 123.45 baht).', valueName: 'n' },
      currency: { type: 'string', description: 'ISO 4217 code, e.g. THB (required).', valueName: 'code' },
      'merchant-order-id': { type: 'string', description: 'Your order id, unique per merchant (default: a generated cli_… id).', valueName: 'id' },
      'payment-method': { type: 'string', description: 'promptpay, paynow, duitnow, qris, gcash, truemoney, alipay_plus.', valueName: 'method' },
      'channel-preference': { type: 'string', description: 'Channel to prefer for attempts.', valueName: 'channel' },
      description: { type: 'string', description: 'Free text.', valueName: 'text' },
      customer: { type: 'string', description: 'Your customer reference.', valueName: 'ref' },
      'return-url': { type: 'string', description: 'https page the payer returns to.', valueName: 'url' },
      'expires-in': { type: 'string', description: 'Seconds until it expires (default 3600).', valueName: 's' },
      metadata: { type: 'string', multiple: true, description: 'key=value, repeatable.', valueName: 'k=v' },
      ...IDEMPOTENCY_OPTION,
    },
    examples: ['payments payment-intents create --amount 12345 --currency THB --merchant-order-id order-1001'],
    async run(context) {
      const v = context.values;
      const params: PaymentIntentCreateParams = {
        amount: requiredInteger(v, 'amount', 1),
        currency: requiredString(v, 'currency').toUpperCase(),
        merchant_order_id: optionalString(v, 'merchant-order-id') ?? `cli_${randomBytes(6).toString('hex')}`,
        payment_method: optionalString(v, 'payment-method'),
        channel_preference: optionalString(v, 'channel-preference'),
        description: optionalString(v, 'description'),
        customer: optionalString(v, 'customer'),
        return_url: optionalString(v, 'return-url'),
        expires_in: optionalInteger(v, 'expires-in', 1),
        metadata: keyValuePairs(v, 'metadata'),
      };
      // Options not given are left out of the body rather than sent as undefined.
      for (const [key, value] of Object.entries(params)) if (value === undefined) Reflect.deleteProperty(params, key);
      printObject(context, await context.client().paymentIntents.create(params, requestOptions(context)));
    },
  },
  {
    name: 'payment-intents get',
    summary: 'Show one payment intent.',
    args: '<payment_intent>',
    examples: ['payments payment-intents get pi_123 --json'],
    async run(context) {
      printObject(context, await context.client().paymentIntents.retrieve(positional(context, 0, 'payment_intent', ID.paymentIntent)));
    },
  },
  {
    name: 'payment-intents list',
    summary: 'List payment intents, newest first.',
    options: {
      ...LIST_OPTIONS,
      status: { type: 'string', description: `Only this status: ${PAYMENT_INTENT_STATUSES.join(', ')}.`, valueName: 'status' },
      'merchant-order-id': { type: 'string', description: 'Only the intent with this order id.', valueName: 'id' },
    },
    examples: ['payments payment-intents list --status succeeded --limit 5'],
    async run(context) {
      const list = context.client().paymentIntents.list({
        ...listParams(context),
        ...given('status', oneOf(context.values, 'status', PAYMENT_INTENT_STATUSES)),
        ...given('merchant_order_id', optionalString(context.values, 'merchant-order-id')),
      });
      await printList(context, list, INTENT_HEADERS, intentRow);
    },
  },
  {
    name: 'payment-intents cancel',
    summary: 'Cancel an intent that is created or requires_payment.',
    args: '<payment_intent>',
    options: { ...IDEMPOTENCY_OPTION },
    examples: ['payments payment-intents cancel pi_123'],
    async run(context) {
      printObject(context, await context.client().paymentIntents.cancel(positional(context, 0, 'payment_intent', ID.paymentIntent), requestOptions(context)));
    },
  },
];
