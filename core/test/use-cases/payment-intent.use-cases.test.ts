import test from 'ava';
import { CoreError } from '../../src/common/core-error';
import { CancelPaymentIntent } from '../../src/payments/use-cases/cancel-payment-intent.use-case';
import { ExpirePaymentIntents } from '../../src/payments/use-cases/expire-payment-intents.use-case';
import { harness } from './harness';

function setup() {
  const h = harness();
  const create = h.createPaymentIntent('https://pay.example.com/');
  const cancel = new CancelPaymentIntent({ uow: h.storage.uow, ...h.statusChange, attempts: h.storage.attempts, channels: h.noChannels });
  const expire = new ExpirePaymentIntents({
    uow: h.storage.uow,
    ...h.statusChange,
    attempts: h.storage.attempts,
    channels: h.noChannels,
    recordReport: h.recordChannelReport(),
  });
  const scope = { merchantId: 'mch_1', mode: 'test' as const };
  return { ...h, create, cancel, expire, scope };
}

test('create stores the intent and a checkout session keyed by the token digest, never the token', async (t) => {
  const s = setup();
  const { intent, checkoutUrl } = await s.create.execute({ scope: s.scope, amount: 2500, currency: 'THB', merchantOrderId: 'A-1' });
  const token = checkoutUrl.split('/c/')[1];
  t.true(checkoutUrl.startsWith('https://pay.example.com/c/'));
  t.is(token.length, 43);
  const session = await s.storage.checkoutSessions.findByTokenDigest(s.digest.sha256Hex(token));
  t.like(session, { paymentIntentId: intent.id, mode: 'test' });
  t.deepEqual(session?.expiresAt, intent.expiresAt);
  t.false(JSON.stringify(s.storage.store).includes(token));
  t.like(await s.storage.intents.findById(s.scope, intent.id), { status: 'created', amount: 2500 });
});

test('a refused create stores nothing', async (t) => {
  const s = setup();
  await t.throwsAsync(s.create.execute({ scope: s.scope, amount: 100, currency: 'THB', merchantOrderId: 'A-2', returnUrl: 'http://x.example.com' }), {
    instanceOf: CoreError,
  });
  const page = await s.storage.intents.list(s.scope, {}, { limit: 10 });
  t.is(page.data.length, 0);
});

test('a used merchant_order_id is merchant_order_id_taken', async (t) => {
  const s = setup();
  await s.create.execute({ scope: s.scope, amount: 100, currency: 'THB', merchantOrderId: 'dup' });
  const error = await t.throwsAsync(s.create.execute({ scope: s.scope, amount: 100, currency: 'THB', merchantOrderId: 'dup' }));
  t.like(error, { code: 'merchant_order_id_taken', category: 'conflict' });
});

test('cancel writes the status and its event together', async (t) => {
  const s = setup();
  const { intent } = await s.create.execute({ scope: s.scope, amount: 100, currency: 'THB', merchantOrderId: 'c1' });
  const canceled = await s.cancel.execute({ scope: s.scope, id: intent.id });
  t.is(canceled.status, 'canceled');
  const events = await s.storage.events.list(s.scope, {}, { limit: 10 });
  t.deepEqual(
    events.data.map((e) => [e.type, e.data.id]),
    [['payment_intent.canceled', intent.id]],
  );
});

test('when the event cannot be written the status change rolls back too', async (t) => {
  const s = setup();
  const { intent } = await s.create.execute({ scope: s.scope, amount: 100, currency: 'THB', merchantOrderId: 'c2' });
  const failingEvents = { ...s.storage.events, append: async () => Promise.reject(new Error('disk full')), list: s.storage.events.list.bind(s.storage.events) };
  const cancel = new CancelPaymentIntent({
    uow: s.storage.uow,
    ...s.statusChange,
    events: failingEvents,
    attempts: s.storage.attempts,
    channels: s.noChannels,
  });
  await t.throwsAsync(cancel.execute({ scope: s.scope, id: intent.id }), { message: 'disk full' });
  t.like(await s.storage.intents.findById(s.scope, intent.id), { status: 'created' });
});

test('expiry acts once the deadline passes, and only on expirable intents', async (t) => {
  const s = setup();
  const { intent: due } = await s.create.execute({ scope: s.scope, amount: 100, currency: 'THB', merchantOrderId: 'e1', expiresIn: 60 });
  const { intent: canceled } = await s.create.execute({ scope: s.scope, amount: 100, currency: 'THB', merchantOrderId: 'e2', expiresIn: 60 });
  await s.cancel.execute({ scope: s.scope, id: canceled.id });
  const expire = async () => (await s.runJob(s.expire, 10)).progressed;
  t.is(await expire(), 0);
  s.clock.advance(60_000);
  t.is(await expire(), 1);
  t.is(await expire(), 0);
  t.like(await s.storage.intents.findById(s.scope, due.id), { status: 'expired' });
  t.like(await s.storage.intents.findById(s.scope, canceled.id), { status: 'canceled' });
});

test('another merchant cannot cancel: 404', async (t) => {
  const s = setup();
  const { intent } = await s.create.execute({ scope: s.scope, amount: 100, currency: 'THB', merchantOrderId: 'o1' });
  const error = await t.throwsAsync(s.cancel.execute({ scope: { merchantId: 'mch_2', mode: 'test' }, id: intent.id }));
  t.like(error, { code: 'resource_not_found' });
});
