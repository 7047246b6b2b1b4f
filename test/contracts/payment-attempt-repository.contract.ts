import { randomBytes } from 'node:crypto';
import test from 'ava';
import { ConcurrentUpdateError, withoutUndefined, type AccountScope, type PaymentAttempt } from '@payments/core';
import { aScope, ids, T0 } from '../fixtures';
import { sharedStorage, withOwnStorage, type StorageAdapter } from './storage-adapters';

const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

function anAttempt(scope: AccountScope, paymentIntentId: string, overrides: Partial<PaymentAttempt> = {}): PaymentAttempt {
  return withoutUndefined({
    id: `pa_${randomBytes(12).toString('hex')}`,
    paymentIntentId,
    merchantId: scope.merchantId,
    mode: scope.mode,
    status: 'pending',
    amount: 10000,
    currency: 'THB',
    paymentMethod: 'promptpay',
    channel: 'simulator',
    channelOrderId: `ord_${randomBytes(6).toString('hex')}`,
    created: T0,
    updated: T0,
    version: 0,
    ...overrides,
  });
}

/** What every PaymentAttemptRepository promises about the attempts that paid an intent twice. */
export function paymentAttemptRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} PaymentAttemptRepository: ${what}`;

  test(
    title('an intent has one pending attempt at most: a second is pending_attempt_exists, written or not; once the first ends, another may start'),
    async (t) => {
      const { attempts } = storage();
      const scope = aScope();
      const intentId = ids.paymentIntent();
      const first = anAttempt(scope, intentId, { channelOrderId: undefined });
      await attempts.insert(first);
      const refused = await t.throwsAsync(attempts.insert(anAttempt(scope, intentId)), { instanceOf: ConcurrentUpdateError });
      t.like(refused, { code: 'pending_attempt_exists', category: 'conflict' });
      await attempts.insert(anAttempt(scope, intentId, { status: 'failed', failureCode: 'expired' }));
      await attempts.insert(anAttempt(scope, ids.paymentIntent()));
      // Recording the order keeps the attempt pending and its place.
      const placed = await attempts.update({ ...first, channelOrderId: 'ord_first' });
      await t.throwsAsync(attempts.insert(anAttempt(scope, intentId)), { instanceOf: ConcurrentUpdateError });
      await attempts.update({ ...placed, status: 'failed', failureCode: 'expired' });
      const next = anAttempt(scope, intentId);
      await attempts.insert(next);
      t.is((await attempts.findPending(scope, intentId))?.id, next.id);
    },
  );

  test(title('of ten pending attempts inserted at once for one intent, one is stored'), async (t) => {
    const { attempts, uow } = storage();
    const scope = aScope();
    const intentId = ids.paymentIntent();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => uow.run((transaction) => transaction.bind(attempts).insert(anAttempt(scope, intentId)))),
    );
    t.is(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1);
    t.is((await attempts.listForIntent(scope, intentId)).length, 1);
  });

  test(title('duplicateOf reads back, and is absent when unset'), async (t) => {
    const { attempts } = storage();
    const scope = aScope();
    const intentId = ids.paymentIntent();
    const paying = anAttempt(scope, intentId, { status: 'succeeded', succeededAt: at(10) });
    const duplicate = anAttempt(scope, intentId, { status: 'succeeded', succeededAt: at(20), duplicateOf: paying.id });
    await attempts.insert(paying);
    await attempts.insert(duplicate);
    t.deepEqual(await attempts.findById(scope, duplicate.id), duplicate);
    const read = await attempts.findById(scope, paying.id);
    t.deepEqual(read, paying);
    t.false(read !== undefined && 'duplicateOf' in read);
  });

  test(title('update writes duplicateOf; findSucceeded answers the attempt that paid, never a duplicate'), async (t) => {
    const { attempts } = storage();
    const scope = aScope();
    const intentId = ids.paymentIntent();
    // Created first, paid last: the order of creation says nothing about which one paid.
    const late = anAttempt(scope, intentId, { status: 'failed', failureCode: 'expired' });
    const paying = anAttempt(scope, intentId, { status: 'succeeded', succeededAt: at(10) });
    await attempts.insert(late);
    await attempts.insert(paying);
    t.is((await attempts.findSucceeded(scope, intentId))?.id, paying.id);
    const { failureCode: _failureCode, ...withoutFailure } = late;
    const marked = await attempts.update({ ...withoutFailure, status: 'succeeded', succeededAt: at(20), duplicateOf: paying.id });
    t.deepEqual(await attempts.findById(scope, late.id), marked);
    t.is((await attempts.findSucceeded(scope, intentId))?.id, paying.id);
    t.is(await attempts.findSucceeded(scope, ids.paymentIntent()), undefined);
  });

  test(title('listDuplicates lists the duplicates of every merchant and mode, latest success first, up to the limit'), async (t) => {
    await withOwnStorage(adapter, async ({ attempts }) => {
      const made: PaymentAttempt[] = [];
      for (const [scope, second] of [
        [aScope('test'), 30],
        [aScope('live'), 50],
        [aScope('test'), 40],
      ] as const) {
        const intentId = ids.paymentIntent();
        const paying = anAttempt(scope, intentId, { status: 'succeeded', succeededAt: at(second - 5) });
        const duplicate = anAttempt(scope, intentId, { status: 'succeeded', succeededAt: at(second), duplicateOf: paying.id });
        await attempts.insert(paying);
        await attempts.insert(duplicate);
        made.push(duplicate);
      }
      await attempts.insert(anAttempt(aScope(), ids.paymentIntent()));
      t.deepEqual(await attempts.listDuplicates(10), [made[1], made[2], made[0]]);
      t.deepEqual(await attempts.listDuplicates(2), [made[1], made[2]]);
    });
  });
}
