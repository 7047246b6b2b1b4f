import { PAYMENT_INTENT_STATUSES, type SimulateOutcome } from '@payments/sdk';
import type { Command } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { durationOption, ID, isOneOf, oneOf, optionalInteger, optionalString, positional } from '../values.js';
import { waitForIntent } from '../wait.js';
import { IDEMPOTENCY_OPTION, printObject, requestOptions } from './common.js';

const OUTCOMES: readonly SimulateOutcome[] = ['succeeded', 'failed', 'pending', 'dispute_opened', 'dispute_won', 'dispute_lost'];
const FAILURE_CODES = ['insufficient_funds', 'payer_cancelled', 'risk_blocked'] as const;

export const testModeCommands: Command[] = [
  {
    name: 'simulate',
    summary: 'Test mode: have the channel report an outcome for the pending attempt (or a dispute ruling).',
    args: '<payment_intent>',
    options: {
      outcome: { type: 'string', description: `${OUTCOMES.join(', ')} (required).`, valueName: 'outcome' },
      'failure-code': { type: 'string', description: `With --outcome failed: ${FAILURE_CODES.join(', ')}.`, valueName: 'code' },
      amount: { type: 'string', description: 'Minor units the callback reports (default the ordered amount).', valueName: 'n' },
      currency: { type: 'string', description: 'Currency the callback reports.', valueName: 'code' },
      ...IDEMPOTENCY_OPTION,
    },
    examples: ['payments simulate pi_123 --outcome succeeded', 'payments simulate pi_123 --outcome failed --failure-code insufficient_funds'],
    async run(context) {
      const id = positional(context, 0, 'payment_intent', ID.paymentIntent);
      const outcome = oneOf(context.values, 'outcome', OUTCOMES);
      if (!outcome) throw new UsageError('--outcome is required.');
      const failureCode = oneOf(context.values, 'failure-code', FAILURE_CODES);
      if (failureCode && outcome !== 'failed') throw new UsageError('--failure-code goes with --outcome failed only.');
      const amount = optionalInteger(context.values, 'amount', 0);
      const currency = optionalString(context.values, 'currency');
      const intent = await context.client().testHelpers.paymentIntents.simulate(
        id,
        {
          outcome,
          ...(failureCode ? { failure_code: failureCode } : {}),
          ...(amount === undefined ? {} : { amount }),
          ...(currency ? { currency: currency.toUpperCase() } : {}),
        },
        requestOptions(context),
      );
      printObject(context, intent);
    },
  },
  {
    name: 'advance',
    summary: 'Test mode: move a running timer to now (expiry, or release once channel_settled).',
    args: '<payment_intent>',
    options: { clock: { type: 'string', description: 'expiry or release (required).', valueName: 'clock' }, ...IDEMPOTENCY_OPTION },
    examples: ['payments advance pi_123 --clock release'],
    notes: 'The worker acts on its next tick; follow with `payments wait` to see the result.',
    async run(context) {
      const id = positional(context, 0, 'payment_intent', ID.paymentIntent);
      const clock = oneOf(context.values, 'clock', ['expiry', 'release'] as const);
      if (!clock) throw new UsageError('--clock is required (expiry or release).');
      printObject(context, await context.client().testHelpers.paymentIntents.advance(id, { clock }, requestOptions(context)));
    },
  },
  {
    name: 'wait',
    summary: 'Wait until a payment intent reaches a status; prints the intent.',
    args: '<payment_intent>',
    options: {
      status: {
        type: 'string',
        description: 'Status to wait for; a comma list waits for any (required). succeeded is also met by channel_settled.',
        valueName: 'status',
      },
      timeout: { type: 'string', description: 'Give up after this long (default 30s); exit 9.', valueName: 'duration' },
    },
    examples: ['payments wait pi_123 --status succeeded --timeout 30s', 'payments wait pi_123 --status succeeded,failed'],
    notes:
      'Polls with backoff (250 ms growing to 2 s); progress is shown on stderr when it is a terminal. Exit 9 on timeout or when the intent ended canceled or expired.',
    handlesSignals: true,
    async run(context) {
      const id = positional(context, 0, 'payment_intent', ID.paymentIntent);
      const raw = optionalString(context.values, 'status');
      if (!raw) throw new UsageError('--status is required.');
      const wanted = raw.split(',').map((text) => {
        const status = text.trim();
        if (!isOneOf(PAYMENT_INTENT_STATUSES, status))
          throw new UsageError(`--status must be among ${PAYMENT_INTENT_STATUSES.join(', ')}, not ${JSON.stringify(status)}.`);
        return status;
      });
      const timeoutMs = durationOption(context.values, 'timeout', '30s');
      const intent = await waitForIntent(context.client(), id, wanted, { timeoutMs, out: context.out, signal: context.signal });
      printObject(context, intent);
    },
  },
];
