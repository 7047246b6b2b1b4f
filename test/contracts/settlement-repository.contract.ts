import test from 'ava';
import { randomBytes } from 'node:crypto';
import { withoutUndefined, type AccountScope, type PaymentIntent, type Settlement } from '@payments/core';
import { aDispute, aMerchant, aPaymentIntent, aPayoutDestination, aScope, ids, T0 } from '../fixtures';
import { sharedStorage, withOwnStorage, type StorageAdapter } from './storage-adapters';

const at = (ms: number): Date => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;

function aSettlement(scope: AccountScope, overrides: Partial<Settlement> = {}): Settlement {
  return {
    id: ids.settlement(),
    merchantId: scope.merchantId,
    mode: scope.mode,
    status: 'pending',
    amount: { amount: 12_345, currency: 'THB' },
    payments: 2,
    periodStart: at(-24 * HOUR),
    periodEnd: T0,
    trigger: 'manual',
    created: T0,
    updated: T0,
    ...overrides,
    // Scheduled batches always carry their part (openSettlement numbers them from 1).
    ...(overrides.trigger === 'scheduled' ? { part: overrides.part ?? 1 } : {}),
  };
}

/** A channel-settled intent released at `releasedAt`, as the release timer leaves it. */
function aReleasedIntent(scope: AccountScope, releasedAt: Date, overrides: Partial<PaymentIntent> = {}): PaymentIntent {
  return withoutUndefined(
    aPaymentIntent(scope, {
      status: 'channel_settled',
      fee: { amount: 300, currency: 'THB' },
      net: { amount: 9700, currency: 'THB' },
      availableAt: releasedAt,
      releasedAt,
      expiresAt: undefined,
      ...overrides,
    }),
  );
}

/** What every SettlementRepository promises. */
export function settlementRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} SettlementRepository: ${what}`;

  test(title('a settlement reads back field for field, within its merchant and mode only, and updates'), async (t) => {
    const { settlements, uow } = storage();
    const scope = aScope('live');
    const settlement = aSettlement(scope);
    await settlements.insert(settlement);
    t.deepEqual(await settlements.findById(scope, settlement.id), settlement);
    t.is(await settlements.findById({ ...scope, mode: 'test' }, settlement.id), undefined, 'another mode');
    t.is(await settlements.findById(aScope('live'), settlement.id), undefined, 'another merchant');

    const paid: Settlement = { ...settlement, status: 'paid', destinationId: 'pd_abc', paidAt: at(HOUR), updated: at(HOUR) };
    await uow.run(async (transaction) => {
      const bound = transaction.bind(settlements);
      t.deepEqual(await bound.findByIdForUpdate(scope, settlement.id), settlement);
      await bound.update(paid);
    });
    t.deepEqual(await settlements.findById(scope, settlement.id), paid);
    const failed: Settlement = { ...settlement, status: 'failed', failureReason: 'account_closed' };
    await settlements.update(failed);
    t.deepEqual(await settlements.findById(scope, settlement.id), failed);
  });

  test(title('list is newest first, per scope, with cursor pages'), async (t) => {
    const { settlements } = storage();
    const scope = aScope('test');
    const made = [aSettlement(scope), aSettlement(scope), aSettlement(scope)];
    for (const settlement of made) await settlements.insert(settlement);
    await settlements.insert(aSettlement({ ...scope, mode: 'live' }));
    const first = await settlements.list(scope, { limit: 2 });
    t.deepEqual(
      first.data.map((s) => s.id),
      [made[2]?.id, made[1]?.id],
    );
    t.true(first.hasMore);
    const second = await settlements.list(scope, { limit: 2, startingAfter: made[1]?.id });
    t.deepEqual(
      second.data.map((s) => s.id),
      [made[0]?.id],
    );
    t.false(second.hasMore);
    const error = await t.throwsAsync(() => settlements.list(aScope('test'), { limit: 2, startingAfter: made[0]?.id }));
    t.like(error, { code: 'invalid_parameter', param: 'starting_after' });
  });

  test(title('one scheduled batch part per merchant, mode and period end; manual ones may share an end'), async (t) => {
    const { settlements } = storage();
    const scope = aScope('test');
    const batch = aSettlement(scope, { trigger: 'scheduled' });
    await settlements.insert(batch);
    const error = await t.throwsAsync(() => settlements.insert(aSettlement(scope, { trigger: 'scheduled' })));
    t.like(error, { category: 'conflict' });
    // A period whose payments sum past 2^53 − 1 is paid in parts: part 2 of the same period is welcome, once.
    const second = aSettlement(scope, { trigger: 'scheduled', part: 2 });
    await settlements.insert(second);
    t.like(await t.throwsAsync(() => settlements.insert(aSettlement(scope, { trigger: 'scheduled', part: 2 }))), { category: 'conflict' });
    t.deepEqual(await settlements.findById(scope, second.id), second);
    await settlements.insert(aSettlement({ ...scope, mode: 'live' }, { trigger: 'scheduled' }));
    await settlements.insert(aSettlement(scope, { trigger: 'manual' }));
    await settlements.insert(aSettlement(scope, { trigger: 'manual' }));
    await settlements.insert(aSettlement(scope, { trigger: 'scheduled', periodEnd: at(24 * HOUR) }));
    t.deepEqual(await settlements.findScheduled(scope, T0), batch);
    t.is(await settlements.findScheduled(scope, at(48 * HOUR)), undefined);
    t.is(await settlements.findScheduled(aScope('test'), T0), undefined);
  });

  test(
    title('findByRequestKey finds the manual settlement of that key, in its scope and of its caller only; the key is unique per merchant, mode and caller'),
    async (t) => {
      const { settlements } = storage();
      const scope = aScope('test');
      const key = { caller: 'api', key: `key-${randomBytes(6).toString('hex')}` };
      const made = aSettlement(scope, { trigger: 'manual', requestKey: key });
      await settlements.insert(made);
      await settlements.insert(aSettlement(scope, { trigger: 'manual' }));
      t.deepEqual(await settlements.findByRequestKey(scope, key), made);
      t.is(await settlements.findByRequestKey(scope, { ...key, key: `${key.key}-other` }), undefined);
      const dashboardKey = { caller: 'dashboard:usr_someone', key: key.key };
      t.is(await settlements.findByRequestKey(scope, dashboardKey), undefined, 'the same key of another caller');
      const theirs = aSettlement(scope, { trigger: 'manual', requestKey: dashboardKey });
      await settlements.insert(theirs);
      t.deepEqual(await settlements.findByRequestKey(scope, dashboardKey), theirs);
      t.deepEqual(await settlements.findByRequestKey(scope, key), made);
      t.is(await settlements.findByRequestKey({ ...scope, mode: 'live' }, key), undefined, 'another mode');
      t.is(await settlements.findByRequestKey(aScope('test'), key), undefined, 'another merchant');
      await settlements.insert(aSettlement({ ...scope, mode: 'live' }, { trigger: 'manual', requestKey: key }));
      await settlements.insert(aSettlement(aScope('test'), { trigger: 'manual', requestKey: key }));
      await t.throwsAsync(() => settlements.insert(aSettlement(scope, { trigger: 'manual', requestKey: key })), { any: true });
    },
  );

  test(title('forgetRequestKey frees the key for a new settlement; update never writes the key back'), async (t) => {
    const { settlements } = storage();
    const scope = aScope('test');
    const key = { caller: 'api', key: `key-${randomBytes(6).toString('hex')}` };
    const old = aSettlement(scope, { trigger: 'manual', requestKey: key });
    await settlements.insert(old);
    await settlements.forgetRequestKey({ ...scope, mode: 'live' }, old.id);
    t.deepEqual(await settlements.findByRequestKey(scope, key), old, 'another scope forgets nothing');

    await settlements.forgetRequestKey(scope, old.id);
    t.is(await settlements.findByRequestKey(scope, key), undefined);
    const renewed = aSettlement(scope, { trigger: 'manual', requestKey: key });
    await settlements.insert(renewed);
    t.deepEqual(await settlements.findByRequestKey(scope, key), renewed);

    // A copy of the old settlement read before its key was forgotten, written back by a payout pass.
    await settlements.update({ ...old, status: 'paid', paidAt: at(HOUR), updated: at(HOUR) });
    const { requestKey: _forgotten, ...withoutKey } = old;
    t.deepEqual(await settlements.findById(scope, old.id), { ...withoutKey, status: 'paid', paidAt: at(HOUR), updated: at(HOUR) });
    t.deepEqual(await settlements.findByRequestKey(scope, key), renewed);
  });

  test(title('findUnfinished lists pending and processing settlements of one mode, every merchant, oldest first'), async (t) => {
    await withOwnStorage(adapter, async ({ settlements }) => {
      const a = aSettlement(aScope('test'));
      const b = aSettlement(aScope('test'), { status: 'processing' });
      const paid = aSettlement(aScope('test'), { status: 'paid' });
      const failed = aSettlement(aScope('test'), { status: 'failed' });
      const c = aSettlement(aScope('test'));
      const live = aSettlement(aScope('live'), { status: 'processing' });
      const livePaid = aSettlement(aScope('live'), { status: 'paid' });
      for (const settlement of [a, live, paid, b, livePaid, failed, c]) await settlements.insert(settlement);
      t.deepEqual(
        (await settlements.findUnfinished('test', 10)).map((s) => s.id),
        [a.id, b.id, c.id],
      );
      t.deepEqual(
        (await settlements.findUnfinished('test', 2)).map((s) => s.id),
        [a.id, b.id],
      );
      t.deepEqual(
        (await settlements.findUnfinished('live', 10)).map((s) => s.id),
        [live.id],
        "the other mode's settlements are not returned",
      );
    });
  });

  test(title('findSettleable: released by then, unsettled, no open or lost dispute, this scope only, oldest release first'), async (t) => {
    const { settlements, intents, disputes } = storage();
    const scope = aScope('test');
    const later = aReleasedIntent(scope, at(2 * HOUR));
    const early = aReleasedIntent(scope, at(HOUR));
    const tooLate = aReleasedIntent(scope, at(5 * HOUR));
    const unreleased = aReleasedIntent(scope, at(HOUR), { releasedAt: undefined });
    const succeeded = aReleasedIntent(scope, at(HOUR), { status: 'succeeded' });
    const covered = aReleasedIntent(scope, at(HOUR), { settlementId: ids.settlement() });
    const opened = aReleasedIntent(scope, at(HOUR));
    const review = aReleasedIntent(scope, at(HOUR));
    const lost = aReleasedIntent(scope, at(HOUR));
    const won = aReleasedIntent(scope, at(3 * HOUR));
    const otherMode = aReleasedIntent({ ...scope, mode: 'live' }, at(HOUR));
    const otherMerchant = aReleasedIntent(aScope('test'), at(HOUR));
    for (const intent of [later, early, tooLate, unreleased, succeeded, covered, opened, review, lost, won, otherMode, otherMerchant])
      await intents.insert(intent);
    await disputes.insert(aDispute(scope, { paymentIntentId: opened.id, status: 'opened' }));
    await disputes.insert(aDispute(scope, { paymentIntentId: review.id, status: 'under_review' }));
    await disputes.insert(aDispute(scope, { paymentIntentId: lost.id, status: 'lost' }));
    await disputes.insert(aDispute(scope, { paymentIntentId: won.id, status: 'won' }));

    const found = await settlements.findSettleable(scope, at(3 * HOUR));
    t.deepEqual(
      found.map((intent) => intent.id),
      [early.id, later.id, won.id],
    );
    t.deepEqual(found[0], early, 'the whole intent, as stored');
  });

  test(
    title('findReleasing: channel-settled, not released, due before then, unsettled, no open or lost dispute, this scope only, earliest due first'),
    async (t) => {
      const { settlements, intents, disputes } = storage();
      const scope = aScope('test');
      const due = (ms: number, overrides: Partial<PaymentIntent> = {}) => aReleasedIntent(scope, at(ms), { releasedAt: undefined, ...overrides });
      const later = due(2 * HOUR);
      const early = due(HOUR);
      const atEnd = due(3 * HOUR);
      const released = aReleasedIntent(scope, at(HOUR));
      const noTimer = due(HOUR, { availableAt: undefined });
      const covered = due(HOUR, { settlementId: ids.settlement() });
      const opened = due(HOUR);
      const won = due(HOUR);
      const otherMode = aReleasedIntent({ ...scope, mode: 'live' }, at(HOUR), { releasedAt: undefined });
      for (const intent of [later, early, atEnd, released, noTimer, covered, opened, won, otherMode]) await intents.insert(intent);
      await disputes.insert(aDispute(scope, { paymentIntentId: opened.id, status: 'opened' }));
      await disputes.insert(aDispute(scope, { paymentIntentId: won.id, status: 'won' }));
      const found = await settlements.findReleasing(scope, at(3 * HOUR));
      t.deepEqual(found.map((intent) => intent.id).sort(), [early.id, won.id, later.id].sort());
      t.is(found.at(-1)?.id, later.id, 'earliest due first');
    },
  );

  test(title('assignPayments marks only unsettled intents of the scope and counts them; releasePayments frees them'), async (t) => {
    const { settlements, intents } = storage();
    const scope = aScope('test');
    const a = aReleasedIntent(scope, T0);
    const b = aReleasedIntent(scope, T0);
    const foreign = aReleasedIntent(aScope('test'), T0);
    for (const intent of [a, b, foreign]) await intents.insert(intent);
    const first = ids.settlement();
    const second = ids.settlement();

    t.is(await settlements.assignPayments(scope, first, [a.id, foreign.id]), 1);
    t.is(await settlements.assignPayments(scope, second, [a.id, b.id]), 1, 'a is taken: only b');
    t.is((await intents.findById(scope, a.id))?.settlementId, first);
    t.is((await intents.findById(scope, b.id))?.settlementId, second);
    t.false('settlementId' in ((await intents.findById(foreign, foreign.id)) ?? {}));

    t.is(await settlements.releasePayments(scope, first), 1);
    t.false('settlementId' in ((await intents.findById(scope, a.id)) ?? {}), 'no property, not an undefined one');
    t.is(await settlements.assignPayments(scope, second, [a.id]), 1, 'free again');
  });

  test(title('an intent update made from a read before the settlement mark does not clear it'), async (t) => {
    const { settlements, intents, merchants } = storage();
    const merchant = aMerchant();
    await merchants.insert(merchant);
    const scope = { merchantId: merchant.id, mode: 'test' as const };
    const intent = aReleasedIntent(scope, T0);
    await intents.insert(intent);
    const stale = await intents.findById(scope, intent.id);
    const settlementId = ids.settlement();
    await settlements.assignPayments(scope, settlementId, [intent.id]);
    if (!stale) return t.fail();
    await intents.update({ ...stale, description: 'changed', updated: at(1000) });
    t.like(await intents.findById(scope, intent.id), { settlementId, description: 'changed' });
  });

  test(title('(settlement jobs) merchants are listed by schedule in id order, page by page'), async (t) => {
    await withOwnStorage(adapter, async ({ merchants }) => {
      const made = [
        aMerchant({ settlementSchedule: 'daily' }),
        aMerchant({ settlementSchedule: 'manual' }),
        aMerchant({ settlementSchedule: 'weekly' }),
        aMerchant({ settlementSchedule: 'monthly' }),
        aMerchant({ settlementSchedule: 'daily' }),
      ];
      for (const merchant of made) await merchants.insert(merchant);
      const scheduled = made
        .filter((m) => m.settlementSchedule !== 'manual')
        .map((m) => m.id)
        .sort((a, b) => (a < b ? -1 : 1));
      const first = await merchants.listBySchedule(['daily', 'weekly', 'monthly'], { limit: 2 });
      t.deepEqual(
        first.map((m) => m.id),
        scheduled.slice(0, 2),
      );
      const rest = await merchants.listBySchedule(['daily', 'weekly', 'monthly'], { afterId: first[1]?.id, limit: 10 });
      t.deepEqual(
        rest.map((m) => m.id),
        scheduled.slice(2),
      );
      t.deepEqual(
        (await merchants.listBySchedule(['manual'], { limit: 10 })).map((m) => m.id),
        [made[1]?.id],
      );
    });
  });

  test(title('(payout verification) unverified destinations of a mode, oldest first; a verdict is recorded once'), async (t) => {
    await withOwnStorage(adapter, async ({ payoutDestinations }) => {
      const scope = aScope('live');
      const a = aPayoutDestination(scope, { status: 'unverified' });
      const verified = aPayoutDestination(scope, { status: 'verified' });
      const b = aPayoutDestination(aScope('live'), { status: 'unverified' });
      const testMode = aPayoutDestination(aScope('test'), { status: 'unverified' });
      for (const destination of [a, verified, b, testMode]) await payoutDestinations.insert(destination);
      t.deepEqual(
        (await payoutDestinations.findUnverified('live', 10)).map((d) => d.id),
        [a.id, b.id],
      );
      t.true(await payoutDestinations.setVerification(scope, a.id, 'verified'));
      t.false(await payoutDestinations.setVerification(scope, a.id, 'rejected'), 'decided already');
      t.false(await payoutDestinations.setVerification(scope, b.id, 'verified'), 'another merchant');
      t.true(await payoutDestinations.setVerification(b, b.id, 'rejected'));
      t.is((await payoutDestinations.findById(scope, a.id))?.status, 'verified');
      t.is((await payoutDestinations.findById(b, b.id))?.status, 'rejected');
      t.deepEqual(await payoutDestinations.findUnverified('live', 10), []);
    });
  });
}
