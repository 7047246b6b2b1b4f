import test from 'ava';
import { ListDuplicatePayments, PaymentAttemptRepository, RecordChannelReport, VerifyLedger } from '@payments/core';
import { AppMetrics } from '../src/container';
import type { ServiceMetrics } from '../src/metrics';
import { capturedLogger, flushLogs } from './helpers/captured-logger';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp } from './helpers/test-app';
import { objectAt } from './helpers/json';

test('a payer who pays a failed attempt after another paid the intent: recorded, owed back, alerted; the merchant sees one payment', async (t) => {
  const log = capturedLogger();
  const t0 = await startTestApp({ logger: log.logger, env: { LOG_LEVEL: 'info' } });
  try {
    const shop = await t0.merchant();
    const flow = paymentFlow(t0, shop.testKey);
    const intent = await flow.createIntent({ amount: 25_000 });
    t.is((await flow.attempt(intent.id)).statusCode, 201);
    t.is((await flow.simulate(intent.id, { outcome: 'failed' })).statusCode, 200);
    t.is((await flow.attempt(intent.id)).statusCode, 201);
    const paid = objectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
    t.is(paid.status, 'succeeded');
    const balance = await flow.get('/v1/balance');
    const listed = await flow.attempts(intent.id);
    const firstAttempt = listed.find((attempt) => attempt.status === 'failed');
    const secondAttempt = listed.find((attempt) => attempt.status === 'succeeded');
    t.is(listed.length, 2);

    // The channel's confirming query now says the first order was paid after all.
    const attempts = t0.app.get<PaymentAttemptRepository>(PaymentAttemptRepository);
    const late = (await attempts.findById({ merchantId: shop.id, mode: 'test' }, firstAttempt!.id))!;
    const report = { channelOrderId: late.channelOrderId!, reference: late.id, status: 'paid' as const, amount: late.amount, currency: late.currency };
    await t0.app.get(RecordChannelReport).execute({ attempt: late, report });
    await t0.app.get(RecordChannelReport).execute({ attempt: late, report });

    t.like(await flow.intent(intent.id), { status: 'succeeded', amount: 25_000, net: paid.net });
    const after = new Map((await flow.attempts(intent.id)).map((attempt): [string, unknown] => [attempt.id, attempt.status]));
    t.deepEqual(
      after,
      new Map([
        [firstAttempt!.id, 'succeeded'],
        [secondAttempt!.id, 'succeeded'],
      ]),
    );
    t.deepEqual(await flow.get('/v1/balance'), balance, 'the merchant is credited once');
    t.is((await flow.eventTypes(intent.id)).filter((type) => type === 'payment_intent.succeeded').length, 1);

    t.like((await t0.app.get(ListDuplicatePayments).execute({ limit: 10 }))[0], {
      id: late.id,
      duplicateOf: secondAttempt!.id,
      amount: 25_000,
      currency: 'THB',
    });
    t.like(await t0.app.get(VerifyLedger).execute({ limit: 10 }), { ok: true });

    const metrics = t0.app.get<ServiceMetrics>(AppMetrics);
    t.regex(await metrics.registry.metrics(), /payments_duplicate_payments_total\{mode="test"\} 1\n/);
    log.logger.flush();
    await flushLogs();
    const alerts = log.lines().filter((line) => String(line.msg).startsWith('duplicate payment'));
    t.is(alerts.length, 1);
    t.like(alerts[0], {
      level: 40,
      payment_attempt: late.id,
      payment_intent: intent.id,
      paid_by: secondAttempt!.id,
      merchant: shop.id,
      mode: 'test',
      amount: 25_000,
      currency: 'THB',
    });
  } finally {
    await t0.close();
  }
});
