import test from 'ava';
import { CoreError } from '@payments/core';
import { aCheckoutSession, aPaymentIntent, aScope, anEvent } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

/** What every UnitOfWork promises, observed through the repositories of the same storage. */
export function unitOfWorkContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} UnitOfWork: ${what}`;

  test(title('writes of a unit of work that resolves are all kept, and its value is returned'), async (t) => {
    const { uow, intents, events, checkoutSessions } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    const event = anEvent(scope);
    const session = aCheckoutSession(intent);
    const value = await uow.run(async () => {
      await intents.insert(intent);
      await checkoutSessions.insert(session);
      await events.append(event);
      return 'done';
    });
    t.is(value, 'done');
    t.deepEqual(await intents.findById(scope, intent.id), intent);
    t.deepEqual(await checkoutSessions.findByTokenDigest(session.tokenDigest), session);
    t.deepEqual((await events.list(scope, {}, { limit: 10 })).data, [event]);
  });

  test(title('a unit of work that throws leaves nothing behind, and its error reaches the caller'), async (t) => {
    const { uow, intents, events, checkoutSessions } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    const session = aCheckoutSession(intent);
    const boom = new Error('the work failed half way');
    const thrown = await t.throwsAsync(
      uow.run(async () => {
        await intents.insert(intent);
        await checkoutSessions.insert(session);
        await events.append(anEvent(scope));
        t.truthy(await intents.findById(scope, intent.id), 'the work sees its own writes');
        throw boom;
      }),
    );
    t.is(thrown, boom);
    t.is(await intents.findById(scope, intent.id), undefined);
    t.is(await checkoutSessions.findByTokenDigest(session.tokenDigest), undefined);
    t.deepEqual(await events.list(scope, {}, { limit: 10 }), { data: [], hasMore: false });
  });

  test(title('an update rolled back restores the previous version'), async (t) => {
    const { uow, intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    await intents.insert(intent);
    await t.throwsAsync(
      uow.run(async () => {
        await intents.update({ ...intent, status: 'canceled' });
        throw new Error('after the update');
      }),
    );
    const read = await intents.findById(scope, intent.id);
    t.is(read?.status, 'created');
    t.is(read?.version, 0);
    await t.notThrowsAsync(intents.update(intent), 'the version read before the rollback is current again');
  });

  test(title('a nested run joins the outer one: it commits and rolls back with it'), async (t) => {
    const { uow, intents, events } = storage();
    const scope = aScope();
    const inner = aPaymentIntent(scope);
    const innerEvent = anEvent(scope);
    await t.throwsAsync(
      uow.run(async () => {
        await uow.run(async () => {
          await intents.insert(inner);
          await events.append(innerEvent);
        });
        t.truthy(await intents.findById(scope, inner.id), 'the outer work sees the nested writes');
        throw new Error('outer fails after the nested run returned');
      }),
    );
    t.is(await intents.findById(scope, inner.id), undefined, 'the nested insert went with the outer rollback');
    t.deepEqual((await events.list(scope, {}, { limit: 10 })).data, []);

    const kept = aPaymentIntent(scope);
    await uow.run(() => uow.run(() => intents.insert(kept)));
    t.deepEqual(await intents.findById(scope, kept.id), kept);
  });

  test(title('a refusal caught inside the work does not undo the rest of it'), async (t) => {
    const { uow, intents, events } = storage();
    const scope = aScope();
    const first = aPaymentIntent(scope, { merchantOrderId: 'uow-dup' });
    const event = anEvent(scope);
    await uow.run(async () => {
      await intents.insert(first);
      const error = await t.throwsAsync(intents.insert(aPaymentIntent(scope, { merchantOrderId: 'uow-dup' })), { instanceOf: CoreError });
      t.is(error?.code, 'merchant_order_id_taken');
      await events.append(event);
    });
    t.deepEqual(await intents.findById(scope, first.id), first);
    t.deepEqual((await events.list(scope, {}, { limit: 10 })).data, [event]);
  });

  test(title('a read outside a running unit of work never sees its uncommitted writes'), async (t) => {
    const { uow, intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    let written!: () => void;
    let finish!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const running = uow.run(async () => {
      await intents.insert(intent);
      written();
      await finished;
      throw new Error('rolled back at the end');
    });
    await wrote;
    // Depending on the adapter this read waits for the unit of work or reads the last commit.
    const outside = intents.findById(scope, intent.id);
    finish();
    await t.throwsAsync(running);
    t.is(await outside, undefined);
  });

  test(title('concurrent units of work each commit their own writes'), async (t) => {
    const { uow, intents, events } = storage();
    const scope = aScope();
    const made = Array.from({ length: 10 }, () => aPaymentIntent(scope));
    await Promise.all(
      made.map((intent) =>
        uow.run(async () => {
          await intents.insert(intent);
          await events.append(
            anEvent(scope, { data: { id: intent.id, object: 'payment_intent', status: 'created', merchant: scope.merchantId, mode: scope.mode } }),
          );
        }),
      ),
    );
    const listed = await intents.list(scope, {}, { limit: 100 });
    t.deepEqual(listed.data.map((intent) => intent.id).sort(), made.map((intent) => intent.id).sort());
    t.is((await events.list(scope, {}, { limit: 100 })).data.length, 10);
  });
}
