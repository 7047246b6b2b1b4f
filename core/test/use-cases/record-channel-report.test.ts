import test from 'ava';
import { merchantBalance, platformAccount } from '../../src/ledger/domain/ledger';
import type { AccountScope } from '../../src/common/mode';
import type { PaymentAttempt } from '../../src/payments/domain/payment-attempt.entity';
import type { DuplicatePaymentAlert, OperatorAlerts } from '../../src/common/operator-alerts.port';
import type { ChannelOrderStatus } from '../../src/payments/ports/payment-channel.port';
import { ListDuplicatePayments } from '../../src/payments/use-cases/list-duplicate-payments.use-case';
import { VerifyLedger } from '../../src/ledger/use-cases/verify-ledger.use-case';
import { fakeAttempt, fakeIntent, harness } from './harness';

class RecordedAlerts implements OperatorAlerts {
  readonly duplicates: DuplicatePaymentAlert[] = [];
  duplicatePayment(alert: DuplicatePaymentAlert): void {
    this.duplicates.push(alert);
  }
}

async function setup() {
  const h = harness();
  const { storage, clock } = h;
  const { merchant } = await h.newMerchant();
  const scope: AccountScope = { merchantId: merchant.id, mode: 'test' };
  const alerts = new RecordedAlerts();
  const record = h.recordChannelReport(alerts);
  const now = clock.now();
  const intent = fakeIntent(scope, now, { id: 'pi_Late1', merchantOrderId: 'late-1' });
  await storage.intents.insert(intent);
  let n = 0;
  const newAttempt = async (): Promise<PaymentAttempt> => {
    n += 1;
    const attempt = fakeAttempt(intent, clock.now(), { id: `pa_Late${n}`, status: 'pending', channelOrderId: `ord_late${n}` });
    await storage.attempts.insert(attempt);
    return attempt;
  };
  const report = (attempt: PaymentAttempt, status: ChannelOrderStatus['status']) =>
    record.execute({
      attempt,
      report: {
        channelOrderId: attempt.channelOrderId!,
        reference: attempt.id,
        status,
        amount: attempt.amount,
        currency: attempt.currency,
        ...(status === 'failed' ? { failureCode: 'expired' as const } : {}),
      },
    });
  const platformBalance = async (name: 'channel_clearing' | 'payer_refunds_due'): Promise<number> =>
    Number(await storage.uow.run((transaction) => transaction.bind(storage.ledger).balanceForUpdate(platformAccount('test', name, 'THB'))));
  return { ...h, scope, intent, alerts, newAttempt, report, platformBalance, list: new ListDuplicatePayments({ attempts: storage.attempts }) };
}

test('a late success of an earlier attempt after another paid the intent: succeeded, owed back to the payer, listed and alerted once', async (t) => {
  const s = await setup();
  const first = await s.newAttempt();
  await s.report(first, 'failed');
  const second = await s.newAttempt();
  const paid = await s.report(second, 'paid');
  t.is(paid.status, 'succeeded');
  const balanceAfterPayment = merchantBalance(await s.storage.ledger.balances(s.scope));
  const clearingAfterPayment = await s.platformBalance('channel_clearing');

  // The payer paid the first attempt's order after all, and the channel now confirms it.
  s.clock.advance(60_000);
  const after = await s.report(first, 'paid');
  t.is(after.status, 'succeeded');
  t.is(after.version, paid.version, 'the intent is not changed');

  const late = await s.storage.attempts.findById(s.scope, first.id);
  t.like(late, { status: 'succeeded', duplicateOf: second.id, succeededAt: s.clock.now() });
  t.is((await s.storage.attempts.findSucceeded(s.scope, s.intent.id))?.id, second.id, 'the intent stays paid by the attempt that paid it');

  t.true(await s.storage.ledger.hasPosted(`duplicate_payment:${first.id}`));
  t.is(await s.platformBalance('payer_refunds_due'), 10000);
  t.is(await s.platformBalance('channel_clearing'), clearingAfterPayment - 10000);
  t.deepEqual(merchantBalance(await s.storage.ledger.balances(s.scope)), balanceAfterPayment, "the merchant's balance does not change");
  t.like(await new VerifyLedger({ ledger: s.storage.ledger }).execute({ limit: 10 }), { ok: true });

  t.deepEqual(s.alerts.duplicates, [
    {
      attemptId: first.id,
      paymentIntentId: s.intent.id,
      merchantId: s.scope.merchantId,
      mode: 'test',
      amount: 10000,
      currency: 'THB',
      channel: 'fake',
      paidBy: second.id,
    },
  ]);
  t.deepEqual(
    (await s.list.execute({ limit: 10 })).map((attempt) => attempt.id),
    [first.id],
  );

  // The channel telling it again changes nothing, posts nothing and alerts nobody.
  await s.report((await s.storage.attempts.findById(s.scope, first.id))!, 'paid');
  await s.report(first, 'paid');
  t.is(s.alerts.duplicates.length, 1);
  t.is(await s.platformBalance('payer_refunds_due'), 10000);
  t.is((await s.list.execute({ limit: 10 })).length, 1);
});

test('a late success of the attempt that paid, or of the first success, is no duplicate', async (t) => {
  const s = await setup();
  const first = await s.newAttempt();
  await s.report(first, 'failed');
  // The failed attempt was paid after all, before any other: it pays the intent.
  const paid = await s.report(first, 'paid');
  t.is(paid.status, 'succeeded');
  await s.report(first, 'paid');
  t.is((await s.storage.attempts.findById(s.scope, first.id))?.duplicateOf, undefined);
  t.false(await s.storage.ledger.hasPosted(`duplicate_payment:${first.id}`));
  t.deepEqual(s.alerts.duplicates, []);
  t.deepEqual(await s.list.execute({ limit: 10 }), []);
});

test('a second payment that rolls back alerts nobody', async (t) => {
  const s = await setup();
  const first = await s.newAttempt();
  await s.report(first, 'failed');
  const second = await s.newAttempt();
  await s.report(second, 'paid');
  // Shadowed on the instance (the copies bound to a transaction see it too), then taken away.
  s.storage.ledger.post = async () => Promise.reject(new Error('database gone'));
  await t.throwsAsync(s.report(first, 'paid'), { message: 'database gone' });
  Reflect.deleteProperty(s.storage.ledger, 'post');
  t.deepEqual(s.alerts.duplicates, []);
  t.like(await s.storage.attempts.findById(s.scope, first.id), { status: 'failed', duplicateOf: undefined });
  await s.report(first, 'paid');
  t.is(s.alerts.duplicates.length, 1, 'the retry records it');
});

test('the duplicate list takes a limit from 1 to 1000', async (t) => {
  const s = await setup();
  for (const limit of [0, 1001, 1.5]) await t.throwsAsync(s.list.execute({ limit }), { message: /limit/ });
});
