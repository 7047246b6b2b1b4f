import test from 'ava';
import { buildContainer, createLogger, loadConfig } from '@payments/api';
import {
  CreateMerchant,
  PaymentAttemptRepository,
  PaymentIntentRepository,
  RecordChannelReport,
  type PaymentAttempt,
  type PaymentIntent,
} from '@payments/core';
import { jsonAt, listAt } from '../fixtures';
import { runAdmin, serviceEnvironment, type ServiceEnvironment } from './process';

let environment: ServiceEnvironment;
test.before(async () => {
  environment = await serviceEnvironment();
});
test.after.always(async () => environment?.cleanup());

/**
 * Makes a payment intent that two attempts paid, the way the service records it (the channel
 * confirming the second payment after the first), in the database the CLI reads.
 */
async function payTwice(): Promise<{ intent: PaymentIntent; paying: PaymentAttempt; late: PaymentAttempt }> {
  const app = await buildContainer(loadConfig(environment.env), { logger: createLogger('silent') });
  try {
    const { merchant } = await app.get(CreateMerchant).execute({ name: 'Twice', email: `twice-${Date.now()}@example.com`, password: 'a long enough password' });
    const now = new Date();
    const intent: PaymentIntent = {
      id: `pi_Twice${Date.now()}`,
      merchantId: merchant.id,
      mode: 'test',
      amount: 42_000,
      currency: 'THB',
      merchantOrderId: 'twice-1',
      status: 'failed',
      metadata: {},
      created: now,
      updated: now,
      version: 0,
    };
    await app.get<PaymentIntentRepository>(PaymentIntentRepository).insert(intent);
    const attempt = (id: string, status: PaymentAttempt['status']): PaymentAttempt & { channelOrderId: string } => ({
      id,
      paymentIntentId: intent.id,
      merchantId: merchant.id,
      mode: 'test',
      status,
      amount: 42_000,
      currency: 'THB',
      paymentMethod: 'promptpay',
      channel: 'simulator',
      channelOrderId: `ord_${id}`,
      created: now,
      updated: now,
      version: 0,
    });
    const late = attempt(`pa_TwiceLate${Date.now()}`, 'failed');
    const paying = attempt(`pa_TwicePaid${Date.now()}`, 'pending');
    const attempts = app.get<PaymentAttemptRepository>(PaymentAttemptRepository);
    await attempts.insert(late);
    await attempts.insert(paying);
    const paid = (a: PaymentAttempt & { channelOrderId: string }) => ({
      channelOrderId: a.channelOrderId,
      reference: a.id,
      status: 'paid' as const,
      amount: a.amount,
      currency: a.currency,
    });
    await app.get(RecordChannelReport).execute({ attempt: paying, report: paid(paying) });
    await app.get(RecordChannelReport).execute({ attempt: late, report: paid(late) });
    return { intent, paying, late };
  } finally {
    await app.close();
  }
}

test('payments duplicates lists what payers paid twice, for the operator to refund; the ledger still verifies', async (t) => {
  const empty = await runAdmin(environment.env, ['payments', 'duplicates']);
  t.is(empty.code, 0, empty.stderr);
  t.deepEqual(JSON.parse(empty.stdout), { duplicate_payments: [] });

  const { intent, paying, late } = await payTwice();
  const listed = await runAdmin(environment.env, ['payments', 'duplicates', '--limit', '10']);
  t.is(listed.code, 0, listed.stderr);
  const duplicates = listAt(JSON.parse(listed.stdout), 'duplicate_payments');
  t.is(duplicates.length, 1);
  t.like(duplicates[0], {
    payment_attempt: late.id,
    payment_intent: intent.id,
    paid_by: paying.id,
    merchant: intent.merchantId,
    mode: 'test',
    amount: 42_000,
    currency: 'THB',
    channel: 'simulator',
    channel_order_id: late.channelOrderId,
    ledger_cause: `duplicate_payment:${late.id}`,
  });
  t.regex(String(jsonAt(duplicates, 0, 'succeeded_at')), /^\d{4}-\d{2}-\d{2}T/);

  const verified = await runAdmin(environment.env, ['ledger', 'verify']);
  t.is(verified.code, 0, verified.stdout);

  const refused = await runAdmin(environment.env, ['payments', 'duplicates', '--limit', '0']);
  t.is(refused.code, 2);
  t.regex(refused.stderr, /--limit takes a whole number from 1 to 1000/);
});
