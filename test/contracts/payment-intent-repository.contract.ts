import test from 'ava';
import {
  ConcurrentUpdateError,
  CoreError,
  type AccountScope,
  type Dispute,
  type MoneyStatus,
  type PaymentIntent,
  type PaymentIntentFilter,
  type PaymentIntentRepository,
} from '@payments/core';
import { aDispute, aPaymentIntent, aScope, ids, T0 } from '../fixtures';
import { sharedStorage, withOwnStorage, type StorageAdapter } from './storage-adapters';

const at = (ms: number): Date => new Date(T0.getTime() + ms);

/** Inserts `count` intents into `scope` one after another; returns them oldest first. */
async function insertMany(
  intents: PaymentIntentRepository,
  scope: AccountScope,
  count: number,
  overrides: (i: number) => Partial<PaymentIntent> = () => ({}),
): Promise<PaymentIntent[]> {
  const made: PaymentIntent[] = [];
  for (let i = 0; i < count; i += 1) {
    const intent = aPaymentIntent(scope, overrides(i));
    await intents.insert(intent);
    made.push(intent);
  }
  return made;
}

/** What every PaymentIntentRepository promises. */
export function paymentIntentRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} PaymentIntentRepository: ${what}`;

  test(title('an intent with every optional field reads back exactly'), async (t) => {
    const { intents } = storage();
    const scope = aScope('live');
    const intent = aPaymentIntent(scope, {
      amount: 9_007_199_254_740_991,
      currency: 'SGD',
      status: 'channel_settled',
      paymentMethod: 'alipay_plus',
      channelPreference: 'rest',
      description: 'Két cà phê ☕ and a 🥐',
      customer: 'cus_42',
      returnUrl: `https://shop.example.com/return?${'q'.repeat(1900)}`,
      metadata: { order: '42', note: 'ใบเสร็จ' },
      fee: { amount: 365, currency: 'THB' },
      net: { amount: 9635, currency: 'THB' },
      fx: { locked: true, lockPoint: 'on_channel_settled', rate: '26.1234', quoteCurrency: 'THB', lockedAt: at(5_000) },
      nextAction: { type: 'redirect', url: 'https://channel.example.com/pay/abc' },
      availableAt: at(172_800_000),
      updated: at(10_000),
      version: 7,
    });
    await intents.insert(intent);
    t.deepEqual(await intents.findById(scope, intent.id), intent);
  });

  test(title('absent optional fields come back absent, not as undefined or null properties'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope, { fx: { locked: false }, nextAction: { type: 'qr_code', qrData: '000201010212' } });
    await intents.insert(intent);
    const read = await intents.findById(scope, intent.id);
    t.deepEqual(read, intent);
    for (const field of ['paymentMethod', 'channelPreference', 'description', 'customer', 'returnUrl', 'fee', 'net', 'availableAt']) {
      t.false(read !== undefined && field in read, `${field} is absent`);
    }
  });

  test(title('merchant_order_id is unique per merchant and mode'), async (t) => {
    const { intents } = storage();
    const scope = aScope('test');
    const first = aPaymentIntent(scope, { merchantOrderId: 'ORDER-1001' });
    await intents.insert(first);

    const error = await t.throwsAsync(intents.insert(aPaymentIntent(scope, { merchantOrderId: 'ORDER-1001' })), { instanceOf: CoreError });
    t.is(error?.code, 'merchant_order_id_taken');
    t.is(error?.category, 'conflict');
    t.is(error?.param, 'merchant_order_id');

    await t.notThrowsAsync(intents.insert(aPaymentIntent(aScope('live', scope.merchantId), { merchantOrderId: 'ORDER-1001' })), 'the same id in live');
    await t.notThrowsAsync(intents.insert(aPaymentIntent(aScope('test'), { merchantOrderId: 'ORDER-1001' })), 'the same id for another merchant');
    const page = await intents.list(scope, { merchantOrderId: 'ORDER-1001' }, { limit: 10 });
    t.deepEqual(
      page.data.map((intent) => intent.id),
      [first.id],
      'the refused insert left nothing behind',
    );
  });

  test(title('merchant_order_id compares case-sensitively'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const upper = aPaymentIntent(scope, { merchantOrderId: 'ORDER-abc' });
    const lower = aPaymentIntent(scope, { merchantOrderId: 'order-ABC' });
    const lowest = aPaymentIntent(scope, { merchantOrderId: 'order-abc' });
    for (const intent of [upper, lower, lowest]) await intents.insert(intent);
    const page = await intents.list(scope, { merchantOrderId: 'order-abc' }, { limit: 10 });
    t.deepEqual(
      page.data.map((intent) => intent.id),
      [lowest.id],
    );
  });

  test(title("another merchant's or mode's intent is invisible to findById"), async (t) => {
    const { intents } = storage();
    const scope = aScope('test');
    const intent = aPaymentIntent(scope);
    await intents.insert(intent);
    t.is(await intents.findById(aScope('test'), intent.id), undefined);
    t.is(await intents.findById(aScope('live', scope.merchantId), intent.id), undefined);
    t.is(await intents.findById(scope, ids.paymentIntent()), undefined);
  });

  test(title('update stores the change over the version read and raises the version'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    await intents.insert(intent);
    const changed = { ...intent, status: 'requires_payment' as const, paymentMethod: 'promptpay', updated: at(1_000) };
    const stored = await intents.update(changed);
    t.deepEqual(stored, { ...changed, version: 1 });
    t.deepEqual(await intents.findById(scope, intent.id), stored);

    const cleared = await intents.update({ ...stored, paymentMethod: undefined });
    t.is(cleared.version, 2);
    const read = await intents.findById(scope, intent.id);
    t.false(read !== undefined && 'paymentMethod' in read, 'a field set to undefined is cleared');
  });

  test(title('an update over a stale version is concurrent_update and changes nothing'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    await intents.insert(intent);
    await intents.update({ ...intent, status: 'requires_payment' });
    const error = await t.throwsAsync(intents.update({ ...intent, status: 'canceled' }), { instanceOf: CoreError });
    t.is(error?.code, 'concurrent_update');
    t.is(error?.category, 'conflict');
    const read = await intents.findById(scope, intent.id);
    t.is(read?.status, 'requires_payment');
    t.is(read?.version, 1);
  });

  test(title('of concurrent updates over one version exactly one wins'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    await intents.insert(intent);
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => intents.update({ ...intent, description: `writer ${i}` })));
    const won = results.filter((result) => result.status === 'fulfilled');
    t.is(won.length, 1);
    for (const result of results) {
      if (result.status === 'rejected') t.like(result.reason, { code: 'concurrent_update' });
    }
    t.is((await intents.findById(scope, intent.id))?.version, 1);
  });

  test(title('bumpVersion raises the version read and nothing else; over a stale version, or for another merchant, it is concurrent_update'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope, { status: 'requires_payment' });
    await intents.insert(intent);
    const bumped = await intents.bumpVersion(intent);
    t.deepEqual(bumped, { ...intent, version: 1 });
    t.deepEqual(await intents.findById(scope, intent.id), bumped);
    await t.throwsAsync(intents.bumpVersion(intent), { instanceOf: ConcurrentUpdateError, message: /changed by another request/ });
    await t.throwsAsync(intents.update({ ...intent, status: 'canceled' }), { instanceOf: ConcurrentUpdateError });
    await t.throwsAsync(intents.bumpVersion({ ...bumped, merchantId: ids.merchant() }), { instanceOf: ConcurrentUpdateError });
    t.is((await intents.findById(scope, intent.id))?.version, 1);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => intents.bumpVersion(bumped)));
    t.is(results.filter((result) => result.status === 'fulfilled').length, 1);
  });

  test(title("an update of another merchant's intent is concurrent_update, never a write"), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    await intents.insert(intent);
    const error = await t.throwsAsync(intents.update({ ...intent, merchantId: ids.merchant(), status: 'canceled' }), { instanceOf: CoreError });
    t.is(error?.code, 'concurrent_update');
    t.is((await intents.findById(scope, intent.id))?.status, 'created');
  });

  test(title('list pages newest first through starting_after, with has_more'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    // One shared created time: the order must come from insertion, not from timestamps or ids.
    const made = await insertMany(intents, scope, 5);
    const [i1, i2, i3, i4, i5] = made.map((intent) => intent.id);

    const first = await intents.list(scope, {}, { limit: 2 });
    t.deepEqual(
      first.data.map((intent) => intent.id),
      [i5, i4],
    );
    t.true(first.hasMore);
    const second = await intents.list(scope, {}, { limit: 2, startingAfter: i4 });
    t.deepEqual(
      second.data.map((intent) => intent.id),
      [i3, i2],
    );
    t.true(second.hasMore);
    const last = await intents.list(scope, {}, { limit: 2, startingAfter: i2 });
    t.deepEqual(
      last.data.map((intent) => intent.id),
      [i1],
    );
    t.false(last.hasMore);
    const exact = await intents.list(scope, {}, { limit: 5 });
    t.is(exact.data.length, 5);
    t.false(exact.hasMore, 'a page that holds exactly the rest has no more');
    t.deepEqual(exact.data[4], made[0], 'listed intents are whole');
  });

  test(title('list filters by status, merchant_order_id, created_gte and created_lte'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const made = await insertMany(intents, scope, 4, (i) => ({
      status: i % 2 === 0 ? 'created' : 'requires_payment',
      created: at(i * 1_000),
      merchantOrderId: `filter-${i}`,
    }));
    const idsOf = (page: { data: PaymentIntent[] }): string[] => page.data.map((intent) => intent.id);

    t.deepEqual(idsOf(await intents.list(scope, { status: 'requires_payment' }, { limit: 10 })), [made[3]?.id, made[1]?.id]);
    t.deepEqual(idsOf(await intents.list(scope, { merchantOrderId: 'filter-2' }, { limit: 10 })), [made[2]?.id]);
    t.deepEqual(idsOf(await intents.list(scope, { createdGte: at(2_000) }, { limit: 10 })), [made[3]?.id, made[2]?.id]);
    t.deepEqual(idsOf(await intents.list(scope, { status: 'created', createdGte: at(1_000) }, { limit: 10 })), [made[2]?.id]);
    t.deepEqual(idsOf(await intents.list(scope, { status: 'succeeded' }, { limit: 10 })), []);

    t.deepEqual(idsOf(await intents.list(scope, { createdLte: at(1_000) }, { limit: 10 })), [made[1]?.id, made[0]?.id], 'created_lte is inclusive');
    t.deepEqual(idsOf(await intents.list(scope, { createdGte: at(1_000), createdLte: at(2_000) }, { limit: 10 })), [made[2]?.id, made[1]?.id]);

    const page = await intents.list(scope, { status: 'created' }, { limit: 1 });
    t.true(page.hasMore);
    const next = await intents.list(scope, { status: 'created' }, { limit: 1, startingAfter: made[3]?.id });
    t.deepEqual(idsOf(next), [made[2]?.id], 'a cursor the filter would not keep still positions the page');
  });

  test(
    title(
      'idOrOrderIdPrefix finds the intent of that id and those whose merchant_order_id starts with it, any case, wildcards as themselves, in the scope only',
    ),
    async (t) => {
      const { intents } = storage();
      const scope = aScope();
      const [first, second, third] = await insertMany(intents, scope, 3, (i) => ({ merchantOrderId: `Search-${i}` }));
      // An order id that is another intent's id: both are found.
      const namedLikeAnId = aPaymentIntent(scope, { merchantOrderId: first.id });
      const underscore = aPaymentIntent(scope, { merchantOrderId: 'SEARCH_9' });
      const percent = aPaymentIntent(scope, { merchantOrderId: 'search%1!' });
      const thai = aPaymentIntent(scope, { merchantOrderId: 'ÄÖ-ใบเสร็จ-1' });
      for (const intent of [namedLikeAnId, underscore, percent, thai]) await intents.insert(intent);
      const found = async (text: string, more: Partial<PaymentIntentFilter> = {}, inScope: AccountScope = scope): Promise<string[]> =>
        (await intents.list(inScope, { idOrOrderIdPrefix: text, ...more }, { limit: 10 })).data.map((intent) => intent.id);

      t.deepEqual(await found(second.id), [second.id]);
      t.deepEqual(await found('search-2'), [third.id], 'the whole order id, in another case');
      t.deepEqual(await found('SEARCH-'), [third.id, second.id, first.id], 'a prefix');
      t.deepEqual(await found(first.id), [namedLikeAnId.id, first.id]);
      t.deepEqual(await found('search_'), [underscore.id], '`_` matches itself only');
      t.deepEqual(await found('search%'), [percent.id], '`%` matches itself only');
      t.deepEqual(await found('search%1!'), [percent.id], 'the escape character matches itself');
      t.deepEqual(await found('äö-ใบ'), [thai.id], 'beyond ASCII, whatever the case');
      t.deepEqual(await found('earch'), [], 'a prefix, not any part');
      t.deepEqual(await found('search-2', { status: 'succeeded' }), [], 'with the other filters');
      t.deepEqual(await found(second.id, {}, aScope('live', scope.merchantId)), [], 'another mode');
      t.deepEqual(await found('search-2', {}, aScope('test')), [], 'another merchant');
    },
  );

  test(title('amounts and currency filter: any of the amounts, each in its currency'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const [thb, sgd, other] = await insertMany(
      intents,
      scope,
      3,
      (i) =>
        [
          { amount: 54_000, currency: 'THB' },
          { amount: 54_000, currency: 'SGD' },
          { amount: 54_050, currency: 'THB' },
        ][i],
    );
    const listed = async (filter: PaymentIntentFilter) => (await intents.list(scope, filter, { limit: 10 })).data.map((intent) => intent.id);
    t.deepEqual(await listed({ amounts: [{ amount: 54_000, currency: 'THB' }] }), [thb.id]);
    t.deepEqual(
      await listed({
        amounts: [
          { amount: 54_000, currency: 'THB' },
          { amount: 54_000, currency: 'SGD' },
        ],
      }),
      [sgd.id, thb.id],
    );
    t.deepEqual(await listed({ amounts: [{ amount: 54_050, currency: 'SGD' }] }), []);
    t.deepEqual(await listed({ amounts: [] }), [], 'no amount: nothing');
    t.deepEqual(await listed({ currency: 'THB' }), [other.id, thb.id]);
  });

  test(title('moneyStatus: refunded or partly from the intent, disputed, won or lost from its disputes (an open one first, then a lost one)'), async (t) => {
    const { intents, disputes } = storage();
    const scope = aScope();
    const [plain, refunded, partly, open, won, lost, lostThenOpen, wonThenLost] = await insertMany(intents, scope, 8, (i) =>
      i === 1 ? { amountRefunded: 10_000 } : i === 2 ? { amountRefunded: 2_500 } : {},
    );
    const dispute = (intent: PaymentIntent, status: Dispute['status']) => disputes.insert(aDispute(scope, { paymentIntentId: intent.id, status }));
    await dispute(open, 'under_review');
    await dispute(won, 'won');
    await dispute(lost, 'lost');
    await dispute(lostThenOpen, 'lost');
    await dispute(lostThenOpen, 'opened');
    await dispute(wonThenLost, 'won');
    await dispute(wonThenLost, 'lost');
    // Another merchant's dispute of the same intent id, and one of the other mode, count for nothing.
    await disputes.insert(aDispute(aScope('test'), { paymentIntentId: plain.id, status: 'lost' }));
    await disputes.insert(aDispute(aScope('live', scope.merchantId), { paymentIntentId: plain.id, status: 'opened' }));
    const listed = async (moneyStatus: MoneyStatus) => (await intents.list(scope, { moneyStatus }, { limit: 10 })).data.map((intent) => intent.id);
    t.deepEqual(await listed('refunded'), [refunded.id]);
    t.deepEqual(await listed('partially_refunded'), [partly.id]);
    t.deepEqual(await listed('disputed'), [lostThenOpen.id, open.id]);
    t.deepEqual(await listed('dispute_lost'), [wonThenLost.id, lost.id]);
    t.deepEqual(await listed('dispute_won'), [won.id]);
    const statuses = await disputes.statusesByPayment(scope, [plain.id, open.id, lostThenOpen.id, wonThenLost.id]);
    t.deepEqual(
      [...statuses.entries()].sort(([a], [b]) => a.localeCompare(b)),
      [
        [open.id, ['under_review']],
        [lostThenOpen.id, ['lost', 'opened']],
        [wonThenLost.id, ['won', 'lost']],
      ].sort(([a], [b]) => String(a).localeCompare(String(b))),
      'statusesByPayment: oldest first, of the scope only',
    );
    t.deepEqual(await disputes.statusesByPayment(scope, []), new Map());
  });

  test(title("list shows only the scope's intents"), async (t) => {
    const { intents } = storage();
    const scope = aScope('test');
    const mine = await insertMany(intents, scope, 2);
    await insertMany(intents, aScope('live', scope.merchantId), 2);
    await insertMany(intents, aScope('test'), 2);
    const page = await intents.list(scope, {}, { limit: 10 });
    t.deepEqual(
      page.data.map((intent) => intent.id),
      [mine[1]?.id, mine[0]?.id],
    );
    t.false(page.hasMore);
  });

  test(title("an unknown cursor, or one naming another merchant's or mode's intent, is invalid_parameter"), async (t) => {
    const { intents } = storage();
    const scope = aScope('test');
    await insertMany(intents, scope, 1);
    const [otherMode] = await insertMany(intents, aScope('live', scope.merchantId), 1);
    const [otherMerchant] = await insertMany(intents, aScope('test'), 1);
    for (const cursor of [ids.paymentIntent(), otherMode?.id, otherMerchant?.id]) {
      const error = await t.throwsAsync(intents.list(scope, {}, { limit: 10, startingAfter: cursor }), { instanceOf: CoreError });
      t.is(error?.code, 'invalid_parameter');
      t.is(error?.category, 'validation');
      t.is(error?.param, 'starting_after');
    }
  });

  test(title('findDueForExpiry returns expirable intents of one mode, every merchant, past their deadline, oldest first'), async (t) => {
    await withOwnStorage(adapter, async ({ intents }) => {
      const a = aScope('test');
      const b = aScope('test');
      const dueLate = aPaymentIntent(a, { status: 'failed', expiresAt: at(3_000) });
      const dueEarly = aPaymentIntent(b, { status: 'requires_payment', expiresAt: at(1_000) });
      const dueMiddle = aPaymentIntent(a, { status: 'created', expiresAt: at(2_000) });
      const dueNow = aPaymentIntent(b, { status: 'created', expiresAt: at(5_000) });
      const notYet = aPaymentIntent(a, { status: 'created', expiresAt: at(5_001) });
      const paid = aPaymentIntent(a, { status: 'succeeded', expiresAt: at(1_000) });
      const alreadyExpired = aPaymentIntent(b, { status: 'expired', expiresAt: at(1_000) });
      const canceled = aPaymentIntent(b, { status: 'canceled', expiresAt: at(1_000) });
      for (const intent of [dueLate, dueEarly, dueMiddle, dueNow, notYet, paid, alreadyExpired, canceled]) await intents.insert(intent);

      const due = await intents.findDueForExpiry('test', at(5_000), 10);
      t.deepEqual(
        due.map((intent) => intent.id),
        [dueEarly.id, dueMiddle.id, dueLate.id, dueNow.id],
      );
      t.deepEqual(due[0], dueEarly);
      t.deepEqual(
        (await intents.findDueForExpiry('test', at(5_000), 2)).map((intent) => intent.id),
        [dueEarly.id, dueMiddle.id],
      );
      t.deepEqual(await intents.findDueForExpiry('test', at(999), 10), []);
    });
  });

  test(title("the background jobs' queries return only the asked mode's intents"), async (t) => {
    await withOwnStorage(adapter, async ({ intents }) => {
      const live = aScope('live');
      const modes = { live, test: aScope('test', live.merchantId) };
      const made = new Map<string, { expiring: PaymentIntent; awaiting: PaymentIntent; releasable: PaymentIntent }>();
      for (const [mode, scope] of Object.entries(modes)) {
        const expiring = aPaymentIntent(scope, { status: 'requires_payment', expiresAt: at(1_000) });
        const awaiting = aPaymentIntent(scope, { status: 'succeeded' });
        const releasable = aPaymentIntent(scope, { status: 'channel_settled', availableAt: at(1_000) });
        for (const intent of [expiring, awaiting, releasable]) await intents.insert(intent);
        made.set(mode, { expiring, awaiting, releasable });
      }
      for (const mode of ['live', 'test'] as const) {
        const mine = made.get(mode);
        t.deepEqual(
          (await intents.findDueForExpiry(mode, at(5_000), 10)).map((intent) => intent.id),
          [mine?.expiring.id],
          `${mode}: expiry`,
        );
        t.deepEqual(
          (await intents.findAwaitingChannelSettlement(mode, at(5_000), 10)).map((intent) => intent.id),
          [mine?.awaiting.id],
          `${mode}: channel settlement`,
        );
        t.deepEqual(
          (await intents.findDueForRelease(mode, at(5_000), 10)).map((intent) => intent.id),
          [mine?.releasable.id],
          `${mode}: release`,
        );
      }
    });
  });

  test(title('an intent the channel has not settled is not asked about again before its next check; never-asked ones come first'), async (t) => {
    await withOwnStorage(adapter, async ({ intents }) => {
      const scope = aScope();
      const oldest = aPaymentIntent(scope, { status: 'succeeded', updated: at(0) });
      const newer = aPaymentIntent(scope, { status: 'succeeded', updated: at(100) });
      for (const intent of [oldest, newer]) await intents.insert(intent);
      t.deepEqual(
        (await intents.findAwaitingChannelSettlement('test', at(1_000), 10)).map((intent) => intent.id),
        [oldest.id, newer.id],
      );
      await intents.deferSettlementCheck(oldest.id, at(60_000));
      t.deepEqual(
        (await intents.findAwaitingChannelSettlement('test', at(1_000), 1)).map((intent) => intent.id),
        [newer.id],
        'the deferred one takes no place in the batch',
      );
      t.deepEqual(
        (await intents.findAwaitingChannelSettlement('test', at(60_000), 10)).map((intent) => intent.id),
        [newer.id, oldest.id],
        'due again, after the never-asked',
      );
      t.deepEqual(await intents.findById(scope, oldest.id), oldest, 'the intent itself is unchanged');
    });
  });

  test(title('stored intents are not shared with callers'), async (t) => {
    const { intents } = storage();
    const scope = aScope();
    const metadata: Record<string, string> = { order: '1' };
    const intent = aPaymentIntent(scope, { metadata });
    await intents.insert(intent);
    metadata['order'] = 'changed after insert';
    const read = await intents.findById(scope, intent.id);
    if (!read) return t.fail('the inserted intent is not found');
    (read.metadata as Record<string, string>)['order'] = 'changed after read';
    read.created.setTime(0);
    const again = await intents.findById(scope, intent.id);
    t.deepEqual(again?.metadata, { order: '1' });
    t.deepEqual(again?.created, T0);
  });

  test(title('findByIdForUpdate serialises concurrent read-modify-write units of work on one intent'), async (t) => {
    const { intents, uow } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope, { metadata: {} });
    await intents.insert(intent);
    // Ten units of work each add one metadata key to what they read: with the row locked none is lost.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        uow.run(async (transaction) => {
          const bound = transaction.bind(intents);
          const current = await bound.findByIdForUpdate(scope, intent.id);
          if (!current) throw new Error('intent vanished');
          await new Promise((resolve) => setTimeout(resolve, 5));
          await bound.update({ ...current, metadata: { ...current.metadata, [`k${i}`]: 'v' } });
        }),
      ),
    );
    const final = await intents.findById(scope, intent.id);
    t.is(Object.keys(final?.metadata ?? {}).length, 10);
    t.is(final?.version, intent.version + 10);
  });

  test(title('findByIdForUpdate sees only the scope it is asked for'), async (t) => {
    const { intents, uow } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    await intents.insert(intent);
    await uow.run(async (transaction) => {
      const bound = transaction.bind(intents);
      t.is(await bound.findByIdForUpdate(aScope(), intent.id), undefined);
      t.is(await bound.findByIdForUpdate({ ...scope, mode: scope.mode === 'test' ? 'live' : 'test' }, intent.id), undefined);
      t.like(await bound.findByIdForUpdate(scope, intent.id), { id: intent.id });
    });
  });
}
