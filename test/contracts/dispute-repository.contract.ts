import test from 'ava';
import type { Dispute, Mode } from '@payments/core';
import { aDispute, aScope, ids, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

/** What every DisputeRepository promises. */
export function disputeRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} DisputeRepository: ${what}`;

  test(title('a dispute reads back field for field, in its own merchant and mode only'), async (t) => {
    const { disputes } = storage();
    const scope = aScope();
    const full = aDispute(scope, {
      held: { amount: 9700, currency: 'THB' },
      heldFrom: 'pending',
      fee: { amount: 1500, currency: 'THB' },
      reason: 'fraudulent',
      evidence: { receipt: 'r-1', 'note ü': 'ünïcode ✓' },
      status: 'lost',
      closedAt: at(60),
    });
    const bare = aDispute(scope);
    await disputes.insert(full);
    await disputes.insert(bare);
    t.deepEqual(await disputes.findById(scope, full.id), full);
    t.deepEqual(await disputes.findByIdForUpdate(scope, full.id), full);
    const read = await disputes.findById(scope, bare.id);
    t.deepEqual(read, bare);
    t.false(read !== undefined && ('held' in read || 'fee' in read || 'closedAt' in read || 'reason' in read), 'absent fields stay absent');
    t.is(await disputes.findById(aScope(), full.id), undefined);
    t.is(await disputes.findById({ ...scope, mode: 'live' }, full.id), undefined);
    t.deepEqual(await disputes.findByChannelDisputeId(full.channel, scope.mode, full.channelDisputeId), full);
    t.is(await disputes.findByChannelDisputeId('rest', scope.mode, full.channelDisputeId), undefined);
    t.is(await disputes.findByChannelDisputeId(full.channel, 'live', full.channelDisputeId), undefined, 'another mode');
  });

  test(title('one row per channel dispute: a second insert of it is refused'), async (t) => {
    const { disputes } = storage();
    const scope = aScope();
    const first = aDispute(scope);
    await disputes.insert(first);
    const error = await t.throwsAsync(disputes.insert(aDispute(scope, { channel: first.channel, channelDisputeId: first.channelDisputeId })));
    t.like(error, { code: 'dispute_exists', category: 'conflict' });
    await t.notThrowsAsync(disputes.insert(aDispute(scope, { channel: 'rest', channelDisputeId: first.channelDisputeId })));
  });

  test(title('a channel dispute id is unique per channel and mode: the same id in live is another dispute'), async (t) => {
    const { disputes } = storage();
    const testDispute = aDispute(aScope('test'));
    const liveDispute = aDispute(aScope('live'), { channel: testDispute.channel, channelDisputeId: testDispute.channelDisputeId });
    await disputes.insert(testDispute);
    await t.notThrowsAsync(disputes.insert(liveDispute));
    t.is((await disputes.findByChannelDisputeId(testDispute.channel, 'test', testDispute.channelDisputeId))?.id, testDispute.id);
    t.is((await disputes.findByChannelDisputeId(testDispute.channel, 'live', testDispute.channelDisputeId))?.id, liveDispute.id);
    const again = await t.throwsAsync(
      disputes.insert(aDispute(aScope('live'), { channel: liveDispute.channel, channelDisputeId: liveDispute.channelDisputeId })),
    );
    t.like(again, { code: 'dispute_exists', category: 'conflict' });
  });

  test(title('update stores every changed field; the latest dispute of an intent is the last opened'), async (t) => {
    const { disputes } = storage();
    const scope = aScope();
    const intentId = ids.paymentIntent();
    const older = aDispute(scope, { paymentIntentId: intentId });
    await disputes.insert(older);
    const newer = aDispute(scope, { paymentIntentId: intentId });
    await disputes.insert(newer);
    await disputes.insert(aDispute(aScope(), { paymentIntentId: intentId }));
    t.is((await disputes.findLatestForIntent(scope, intentId))?.id, newer.id);
    t.is(await disputes.findLatestForIntent(scope, ids.paymentIntent()), undefined);

    const ruled: Dispute = { ...newer, status: 'won', evidence: { a: '1', b: '2' }, closedAt: at(90), updated: at(90) };
    await disputes.update(ruled);
    t.deepEqual(await disputes.findById(scope, newer.id), ruled);
    t.deepEqual(await disputes.findById(scope, older.id), older);
  });

  test(title('due for check: of one mode, unruled, quiet since the cutoff, oldest change first, not before the next check set'), async (t) => {
    const { disputes } = storage();
    const scope = aScope();
    // Far in the future, so rows of other tests on the shared storage never qualify.
    const base = new Date(T0.getTime() + 400 * 24 * 3600 * 1000);
    const after = (seconds: number): Date => new Date(base.getTime() + seconds * 1000);
    const oldest = aDispute(scope, { updated: after(10) });
    const reviewing = aDispute(aScope(), { status: 'under_review', updated: after(20) });
    const ruled = aDispute(scope, { status: 'won', updated: after(5), closedAt: after(5) });
    const recent = aDispute(scope, { updated: after(100) });
    const live = aDispute(aScope('live', scope.merchantId), { updated: after(15) });
    for (const dispute of [recent, ruled, reviewing, live, oldest]) await disputes.insert(dispute);
    const due = async (now: Date, limit = 10_000, mode: Mode = 'test'): Promise<string[]> =>
      (await disputes.findDueForCheck({ mode, updatedBefore: after(50), now, limit })).filter((d) => d.updated >= base).map((d) => d.id);
    t.deepEqual(await due(after(60)), [oldest.id, reviewing.id]);
    t.deepEqual(await due(after(60), 10_000, 'live'), [live.id], "the other mode's disputes are not returned");
    t.is((await disputes.findDueForCheck({ mode: 'test', updatedBefore: after(50), now: after(60), limit: 1 })).length, 1);

    await disputes.setNextCheck(oldest.id, after(120));
    t.deepEqual(await due(after(60)), [reviewing.id]);
    t.deepEqual(await due(after(120)), [oldest.id, reviewing.id]);
    // An update of the dispute leaves its schedule alone.
    await disputes.update({ ...oldest, evidence: { k: 'v' } });
    t.deepEqual(await due(after(60)), [reviewing.id]);
  });

  test(title('lists are newest first, filter by status, page after a cursor of the scope only'), async (t) => {
    const { disputes } = storage();
    const scope = aScope();
    const made: Dispute[] = [];
    for (const status of ['opened', 'under_review', 'won', 'lost', 'opened'] as const) {
      const dispute = aDispute(scope, { status });
      await disputes.insert(dispute);
      made.push(dispute);
    }
    const foreign = aDispute(aScope());
    await disputes.insert(foreign);
    const page = await disputes.list(scope, {}, { limit: 2 });
    t.deepEqual(
      page.data.map((d) => d.id),
      [made[4].id, made[3].id],
    );
    t.true(page.hasMore);
    const rest = await disputes.list(scope, {}, { limit: 10, startingAfter: made[3].id });
    t.deepEqual(
      rest.data.map((d) => d.id),
      [made[2].id, made[1].id, made[0].id],
    );
    t.false(rest.hasMore);
    t.deepEqual(
      (await disputes.list(scope, { status: 'opened' }, { limit: 10 })).data.map((d) => d.id),
      [made[4].id, made[0].id],
    );
    t.deepEqual(
      (await disputes.list(scope, { status: 'opened' }, { limit: 10, startingAfter: made[3].id })).data.map((d) => d.id),
      [made[0].id],
    );
    const error = await t.throwsAsync(disputes.list(scope, {}, { limit: 10, startingAfter: foreign.id }));
    t.like(error, { code: 'invalid_parameter', param: 'starting_after' });
  });
}
