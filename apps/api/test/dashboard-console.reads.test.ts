import test from 'ava';
import { CreateMerchant, Ledger, MAX_AMOUNT, MerchantRepository, paymentPosting } from '@payments/core';
import { asUser, errorOf, signIn, type SignedInUser } from './helpers/dashboard';
import { apiObjectAt, apiObjectsAt, jsonAt, listAt, numberAt, textAt, type ApiObject } from './helpers/json';
import { paymentFlow } from './helpers/payment-flow';
import { unique, type TestResponse } from './helpers/test-app';
import { appOnFakeClock } from './helpers/worker-tick';

/*
 * The dashboard's reads of money: per mode (`?mode=`), scoped to the signed-in user's merchant,
 * and answering the very JSON the merchant API answers.
 */

const { clock, app, tick } = appOnFakeClock();
const DAY_MS = 24 * 3600 * 1000;

type Flow = ReturnType<typeof paymentFlow>;

/** A new shop on the manual schedule, with its API flow and a viewer (reads are every role's). */
async function shop(): Promise<{ flow: Flow; key: string; merchantId: string; viewer: () => Promise<SignedInUser> }> {
  const suffix = unique('console');
  const created = await app()
    .app.get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery' });
  const merchantId = created.merchant.id;
  await app().app.get<MerchantRepository>(MerchantRepository).updateSettings(merchantId, { settlementSchedule: 'manual' });
  const key = created.testApiKey.secret;
  return { flow: paymentFlow(app(), key), key, merchantId, viewer: () => signIn(app(), { merchantId, role: 'viewer' }) };
}

async function paidIntent(flow: Flow, overrides: Record<string, unknown> = {}): Promise<ApiObject> {
  const intent = await flow.createIntent({ amount: 10_000, ...overrides });
  await flow.attempt(intent.id);
  const paid = apiObjectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  if (paid.status !== 'succeeded') throw new Error(`setup: the payment did not succeed: ${JSON.stringify(paid)}`);
  return paid;
}

const get = (user: { cookie: string }, url: string): Promise<TestResponse> => asUser(app(), user, { method: 'GET', url });
const idsOf = (res: TestResponse): string[] => apiObjectsAt(res.result, 'data').map((object) => object.id);

/** Another merchant's owner: every object of the shop is 404 to them. */
async function stranger(): Promise<SignedInUser> {
  return signIn(app(), { merchantId: (await shop()).merchantId, role: 'owner' });
}

test.serial(
  'payment intents: newest first, filtered by status, an inclusive created range (dates or date-times) and q; paged; per mode and merchant',
  async (t) => {
    const { flow, viewer } = await shop();
    // One intent a day: the first open, the second paid, the third canceled.
    const first = await flow.createIntent({ merchant_order_id: unique('order') });
    clock.advance(DAY_MS);
    const second = await paidIntent(flow, { merchant_order_id: unique('order') });
    clock.advance(DAY_MS);
    const third = await flow.createIntent();
    await flow.post(`/v1/payment_intents/${third.id}/cancel`, {});
    const user = await viewer();
    const dayOf = (intent: ApiObject): string => textAt(intent, 'created').slice(0, 10);
    const list = (query: string) => get(user, `/dashboard/v1/payment_intents?mode=test${query}`);

    const all = await list('');
    t.is(all.statusCode, 200, all.payload);
    t.like(all.result, { object: 'list', has_more: false });
    t.deepEqual(idsOf(all), [third.id, second.id, first.id]);
    t.deepEqual(
      apiObjectsAt(all.result, 'data')[1],
      { ...(await flow.intent(second.id)), money_statuses: [] },
      'as the merchant API shows it, with its money statuses',
    );

    t.deepEqual(idsOf(await list('&status=succeeded')), [second.id]);
    t.deepEqual(idsOf(await list('&status=canceled')), [third.id]);
    t.deepEqual(idsOf(await list(`&created_gte=${dayOf(second)}`)), [third.id, second.id], 'a date as the start: from its first instant');
    t.deepEqual(idsOf(await list(`&created_lte=${dayOf(second)}`)), [second.id, first.id], 'a date as the end: its whole day');
    t.deepEqual(idsOf(await list(`&created_gte=${dayOf(second)}&created_lte=${dayOf(second)}`)), [second.id]);
    const exactly = textAt(second, 'created');
    t.deepEqual(idsOf(await list(`&created_gte=${exactly}&created_lte=${exactly}`)), [second.id], 'inclusive, to the second shown');
    t.deepEqual(idsOf(await list(`&created_lte=${encodeURIComponent(exactly.replace('Z', '+00:00'))}`)), [second.id, first.id], 'with an offset');
    t.deepEqual(idsOf(await list(`&q=${first.id}`)), [first.id], 'q: an intent id');
    t.deepEqual(idsOf(await list(`&q=${encodeURIComponent(textAt(second, 'merchant_order_id'))}`)), [second.id], 'q: a merchant_order_id');
    t.deepEqual(idsOf(await list(`&q=${first.id}&status=succeeded`)), [], 'q with the other filters');
    t.deepEqual(idsOf(await list('&q=ORDER-')), [third.id, second.id, first.id], 'a prefix of the order id, whatever the case');

    const page = await list('&limit=2');
    t.deepEqual(idsOf(page), [third.id, second.id]);
    t.true(jsonAt(page.result, 'has_more'));
    t.deepEqual(idsOf(await list(`&limit=2&starting_after=${second.id}`)), [first.id]);

    for (const [query, param] of [
      ['&created_lte=2026-02-30', 'created_lte'],
      ['&created_gte=yesterday', 'created_gte'],
      ['&created_gte=2026-05-01T25:00:00Z', 'created_gte'],
      ['&limit=101', 'limit'],
      ['&status=paid', 'status'],
      ['&starting_after=pi_unknown', 'starting_after'],
    ] as const) {
      const refused = await list(query);
      t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 400, code: 'invalid_parameter', param }, query);
    }
    const noMode = await get(user, '/dashboard/v1/payment_intents');
    t.like({ status: noMode.statusCode, ...errorOf(noMode) }, { status: 400, param: 'mode' });
    t.deepEqual(idsOf(await get(user, '/dashboard/v1/payment_intents?mode=live')), [], 'the other mode');
    t.deepEqual(idsOf(await get(await stranger(), '/dashboard/v1/payment_intents?mode=test')), [], 'another merchant');
  },
);

test.serial(
  "one intent: itself, its attempts, its events (its own, its refunds' and its disputes', with their bodies) and its disputes, as /v1 shows them",
  async (t) => {
    const { flow, viewer } = await shop();
    const intent = await paidIntent(flow);
    const other = await paidIntent(flow);
    const refund = apiObjectAt((await flow.post('/v1/refunds', { payment_intent: intent.id, amount: 1_000 })).result);
    await tick();
    await flow.simulate(intent.id, { outcome: 'dispute_opened' });
    await flow.simulate(other.id, { outcome: 'dispute_opened' });
    const [dispute] = apiObjectsAt(await flow.get('/v1/disputes?limit=100'), 'data').filter((d) => d.payment_intent === intent.id);
    const user = await viewer();
    const at = (path: string) => get(user, `/dashboard/v1/payment_intents/${intent.id}${path}?mode=test`);

    const shown = await at('');
    t.is(shown.statusCode, 200, shown.payload);
    t.deepEqual(shown.result, { ...(await flow.intent(intent.id)), money_statuses: ['partially_refunded', 'disputed'] });
    t.like(shown.result, { amount_refunded: 1_000 });
    t.truthy(jsonAt(shown.result, 'fee'));
    t.truthy(jsonAt(shown.result, 'net'));

    const attempts = await at('/attempts');
    t.deepEqual(apiObjectsAt(attempts.result, 'data'), await flow.attempts(intent.id));
    t.like(attempts.result, { object: 'list', has_more: false });

    // The merchant API's bodies of the same events, oldest first.
    const about = new Set([intent.id, refund.id, dispute.id]);
    const expected = apiObjectsAt(await flow.get('/v1/events?limit=100'), 'data')
      .filter((event) => about.has(textAt(event, 'data', 'id')))
      .reverse();
    const events = await at('/events');
    t.is(events.statusCode, 200, events.payload);
    t.deepEqual(apiObjectsAt(events.result, 'data'), expected);
    t.deepEqual(
      apiObjectsAt(events.result, 'data').map((event) => event.type),
      ['payment_intent.requires_payment', 'payment_intent.succeeded', 'refund.created', 'refund.succeeded', 'payment_intent.channel_settled', 'dispute.opened'],
    );

    const disputes = await at('/disputes');
    t.deepEqual(apiObjectsAt(disputes.result, 'data'), [await flow.get(`/v1/disputes/${dispute.id}`)]);

    const foreign = await stranger();
    for (const path of ['', '/attempts', '/events', '/disputes']) {
      const live = await get(user, `/dashboard/v1/payment_intents/${intent.id}${path}?mode=live`);
      t.like({ status: live.statusCode, ...errorOf(live) }, { status: 404, code: 'resource_not_found' }, `live ${path}`);
      const theirs = await get(foreign, `/dashboard/v1/payment_intents/${intent.id}${path}?mode=test`);
      t.is(theirs.statusCode, 404, `another merchant ${path}`);
      const malformed = await get(user, `/dashboard/v1/payment_intents/not-an-id${path}?mode=test`);
      t.like({ status: malformed.statusCode, ...errorOf(malformed) }, { status: 400, param: 'id' }, `malformed ${path}`);
    }
  },
);

test.serial(
  'search: an order id prefix whatever its case (wildcards are themselves), an amount as a person writes it; money statuses shown and filtered',
  async (t) => {
    const { flow, viewer } = await shop();
    const tag = unique('s').replace(/-/g, '').toUpperCase();
    const order = await paidIntent(flow, { merchant_order_id: `ORD-${tag}-24053`, amount: 54_000 });
    const underscore = await flow.createIntent({ merchant_order_id: `ord_${tag}_x`, amount: 125_050 });
    const percent = await flow.createIntent({ merchant_order_id: `ORD%${tag}`, amount: 54_050 });
    const refunded = await paidIntent(flow, { merchant_order_id: `REF-${tag}-1` });
    const partly = await paidIntent(flow, { merchant_order_id: `REF-${tag}-2` });
    const won = await paidIntent(flow, { merchant_order_id: `DSP-${tag}-1` });
    const lost = await paidIntent(flow, { merchant_order_id: `DSP-${tag}-2` });
    const open = await paidIntent(flow, { merchant_order_id: `DSP-${tag}-3` });
    await flow.post('/v1/refunds', { payment_intent: refunded.id, amount: 10_000 });
    await flow.post('/v1/refunds', { payment_intent: partly.id, amount: 2_500 });
    await tick();
    for (const intent of [won, lost, open]) await flow.simulate(intent.id, { outcome: 'dispute_opened' });
    await flow.simulate(won.id, { outcome: 'dispute_won' });
    await flow.simulate(lost.id, { outcome: 'dispute_lost' });
    const user = await viewer();
    const list = (query: string) => get(user, `/dashboard/v1/payment_intents?mode=test${query}`);
    const search = async (q: string) => idsOf(await list(`&q=${encodeURIComponent(q)}`));

    t.deepEqual(await search(`ord-${tag.toLowerCase()}`), [order.id], 'a prefix, in the other case');
    t.deepEqual(await search(`Ord-${tag}-24053`), [order.id], 'the whole order id, mixed case');
    t.deepEqual(await search(`ord_${tag}`), [underscore.id], '`_` is itself, not any character (ORD-… is not found)');
    t.deepEqual(await search(`ord%${tag}`), [percent.id], '`%` is itself');
    t.deepEqual(await search(`ord%`), [percent.id], 'a `%` alone matches no other order id');
    t.deepEqual(await search(order.id), [order.id], 'an intent id');
    t.deepEqual(await search(`24053`), [], 'a prefix, not any part');

    const amount = async (text: string) => idsOf(await list(`&q=${tag.slice(0, 1)}&amount=${encodeURIComponent(text)}`));
    const byAmount = async (text: string) => idsOf(await list(`&amount=${encodeURIComponent(text)}`));
    t.deepEqual(await byAmount('540'), [order.id], '540 THB is 54000 minor units');
    t.deepEqual(await byAmount('540.00'), [order.id]);
    t.deepEqual(await byAmount('540.5'), [percent.id]);
    t.deepEqual(await byAmount('1,250.50'), [underscore.id], 'grouping commas');
    t.deepEqual(await byAmount('540.001'), [], 'more digits than the currency has: no amount of it');
    t.deepEqual(idsOf(await list('&amount=540&currency=SGD')), [], 'with a currency');
    t.deepEqual(idsOf(await list('&amount=540&currency=THB')), [order.id]);
    t.deepEqual(await amount('540'), [], 'amount and q together');
    for (const [query, param] of [
      ['&amount=abc', 'amount'],
      ['&amount=-5', 'amount'],
      ['&amount=1,2', 'amount'],
      ['&money_status=held', 'money_status'],
      ['&currency=thb', 'currency'],
    ] as const) {
      const refused = await list(query);
      t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 400, code: 'invalid_parameter', param }, query);
    }

    const statusesOf = async (id: string) => jsonAt((await get(user, `/dashboard/v1/payment_intents/${id}?mode=test`)).result, 'money_statuses');
    t.deepEqual(await statusesOf(refunded.id), ['refunded']);
    t.deepEqual(await statusesOf(partly.id), ['partially_refunded']);
    t.deepEqual(await statusesOf(won.id), ['dispute_won']);
    t.deepEqual(await statusesOf(lost.id), ['dispute_lost']);
    t.deepEqual(await statusesOf(open.id), ['disputed']);
    t.deepEqual(await statusesOf(order.id), []);
    const filtered = async (status: string) => idsOf(await list(`&money_status=${status}`));
    t.deepEqual(await filtered('refunded'), [refunded.id]);
    t.deepEqual(await filtered('partially_refunded'), [partly.id]);
    t.deepEqual(await filtered('disputed'), [open.id]);
    t.deepEqual(await filtered('dispute_won'), [won.id]);
    t.deepEqual(await filtered('dispute_lost'), [lost.id]);
    const listed = apiObjectsAt((await list(`&q=DSP-${tag}`)).result, 'data');
    t.deepEqual(
      listed.map((intent) => [intent.id, intent.money_statuses]),
      [
        [open.id, ['disputed']],
        [lost.id, ['dispute_lost']],
        [won.id, ['dispute_won']],
      ],
      "the list shows each intent's money statuses",
    );
  },
);

test.serial('disputes: newest first, by status, one by id; events: newest first with bodies, by type (refund types too), one by id', async (t) => {
  const { flow, viewer } = await shop();
  const a = await paidIntent(flow);
  const b = await paidIntent(flow);
  await flow.simulate(a.id, { outcome: 'dispute_opened' });
  await flow.simulate(b.id, { outcome: 'dispute_opened' });
  await flow.simulate(a.id, { outcome: 'dispute_won' });
  await flow.post('/v1/refunds', { payment_intent: a.id, amount: 500 });
  const v1Disputes = apiObjectsAt(await flow.get('/v1/disputes'), 'data');
  const user = await viewer();

  const disputes = await get(user, '/dashboard/v1/disputes?mode=test');
  t.is(disputes.statusCode, 200, disputes.payload);
  t.deepEqual(apiObjectsAt(disputes.result, 'data'), v1Disputes);
  t.deepEqual(
    apiObjectsAt((await get(user, '/dashboard/v1/disputes?mode=test&status=won')).result, 'data').map((d) => d.payment_intent),
    [a.id],
  );
  t.deepEqual(idsOf(await get(user, `/dashboard/v1/disputes?mode=test&limit=1&starting_after=${v1Disputes[0].id}`)), [v1Disputes[1].id]);
  const one = await get(user, `/dashboard/v1/disputes/${v1Disputes[0].id}?mode=test`);
  t.deepEqual(one.result, v1Disputes[0]);

  const v1Events = apiObjectsAt(await flow.get('/v1/events?limit=100'), 'data');
  const events = await get(user, '/dashboard/v1/events?mode=test&limit=100');
  t.is(events.statusCode, 200, events.payload);
  t.deepEqual(apiObjectsAt(events.result, 'data'), v1Events);
  const refunds = await get(user, '/dashboard/v1/events?mode=test&type=refund.created');
  t.deepEqual(
    apiObjectsAt(refunds.result, 'data'),
    v1Events.filter((event) => event.type === 'refund.created'),
    'an opt-in type is listed like any other',
  );
  t.is(listAt(refunds.result, 'data').length, 1);
  const paged = await get(user, `/dashboard/v1/events?mode=test&limit=2&starting_after=${v1Events[1].id}`);
  t.deepEqual(idsOf(paged), [v1Events[2].id, v1Events[3].id]);
  t.deepEqual((await get(user, `/dashboard/v1/events/${v1Events[0].id}?mode=test`)).result, v1Events[0]);
  const unknownType = await get(user, '/dashboard/v1/events?mode=test&type=payment_intent.paid');
  t.like({ status: unknownType.statusCode, ...errorOf(unknownType) }, { status: 400, param: 'type' });

  const foreign = await stranger();
  for (const url of [`/dashboard/v1/disputes/${v1Disputes[0].id}`, `/dashboard/v1/events/${v1Events[0].id}`]) {
    t.is((await get(user, `${url}?mode=live`)).statusCode, 404, `${url} live`);
    t.is((await get(foreign, `${url}?mode=test`)).statusCode, 404, `${url} another merchant`);
  }
  t.deepEqual(idsOf(await get(foreign, '/dashboard/v1/disputes?mode=test')), []);
  t.deepEqual(idsOf(await get(foreign, '/dashboard/v1/events?mode=test')), []);
});

test.serial('the balance is the /v1 answer to the byte, exact past 2^53 − 1; settlements list and read as /v1 shows them', async (t) => {
  const { flow, key, merchantId, viewer } = await shop();
  const ledger = app().app.get<Ledger>(Ledger);
  for (let i = 0; i < 3; i += 1) {
    const id = `pi_${unique('BIG').replace(/[^A-Za-z0-9]/g, '')}`;
    await ledger.post(
      paymentPosting({ id, merchantId, mode: 'test', net: { amount: MAX_AMOUNT - 1, currency: 'THB' }, fee: { amount: 1, currency: 'THB' } }, clock.now()),
    );
  }
  const user = await viewer();
  const balance = await get(user, '/dashboard/v1/balance?mode=test');
  t.is(balance.statusCode, 200);
  t.regex(String(balance.headers['content-type']), /^application\/json/);
  // 3 × (2^53 − 2) = 27021597764222970; read as text, since JSON.parse would round it.
  t.regex(balance.payload, /"pending":\[\{"amount":27021597764222970,"currency":"THB"\}\]/);
  t.is(balance.payload, (await app().request({ method: 'GET', url: '/v1/balance', key })).payload);
  t.regex((await get(user, '/dashboard/v1/balance?mode=live')).payload, /"pending":\[\{"amount":0,/, 'per mode');

  const intent = await paidIntent(flow);
  await tick();
  await tick();
  await flow.advance(intent.id, 'release');
  await tick();
  const made = await flow.post('/v1/settlements', {});
  t.is(made.statusCode, 201, made.payload);
  const settlement = apiObjectAt(made.result);
  const list = await get(user, '/dashboard/v1/settlements?mode=test');
  t.deepEqual(apiObjectsAt(list.result, 'data'), apiObjectsAt(await flow.get('/v1/settlements'), 'data'));
  t.deepEqual(idsOf(list), [settlement.id]);
  t.deepEqual((await get(user, `/dashboard/v1/settlements/${settlement.id}?mode=test`)).result, await flow.get(`/v1/settlements/${settlement.id}`));
  t.is(numberAt((await get(user, `/dashboard/v1/settlements/${settlement.id}?mode=test`)).result, 'amount', 'amount'), numberAt(intent, 'net', 'amount'));
  t.is((await get(user, `/dashboard/v1/settlements/${settlement.id}?mode=live`)).statusCode, 404);
  const foreign = await stranger();
  t.is((await get(foreign, `/dashboard/v1/settlements/${settlement.id}?mode=test`)).statusCode, 404);
  t.deepEqual(idsOf(await get(foreign, '/dashboard/v1/settlements?mode=test')), []);
});
