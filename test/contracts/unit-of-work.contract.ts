import test from 'ava';
import { CoreError, type PaymentIntentRepository, type UnitOfWork } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
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
    const value = await uow.run(async (transaction) => {
      const bound = transaction.bind(storage());
      await bound.intents.insert(intent);
      await bound.checkoutSessions.insert(session);
      await bound.events.append(event);
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
      uow.run(async (transaction) => {
        const bound = transaction.bind(storage());
        await bound.intents.insert(intent);
        await bound.checkoutSessions.insert(session);
        await bound.events.append(anEvent(scope));
        t.truthy(await bound.intents.findById(scope, intent.id), 'the work sees its own writes');
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
      uow.run(async (transaction) => {
        await transaction.bind(intents).update({ ...intent, status: 'canceled' });
        throw new Error('after the update');
      }),
    );
    const read = await intents.findById(scope, intent.id);
    t.is(read?.status, 'created');
    t.is(read?.version, 0);
    await t.notThrowsAsync(intents.update(intent), 'the version read before the rollback is current again');
  });

  test(title('a nested run through the bound unit of work joins the outer one: it commits and rolls back with it'), async (t) => {
    const { uow, intents, events } = storage();
    const scope = aScope();
    const inner = aPaymentIntent(scope);
    const innerEvent = anEvent(scope);
    await t.throwsAsync(
      uow.run(async (transaction) => {
        await transaction.bind(uow).run(async (nested) => {
          await nested.bind(intents).insert(inner);
          await nested.bind(events).append(innerEvent);
        });
        t.truthy(await transaction.bind(intents).findById(scope, inner.id), 'the outer work sees the nested writes');
        throw new Error('outer fails after the nested run returned');
      }),
    );
    t.is(await intents.findById(scope, inner.id), undefined, 'the nested insert went with the outer rollback');
    t.deepEqual((await events.list(scope, {}, { limit: 10 })).data, []);

    const kept = aPaymentIntent(scope);
    await uow.run((transaction) => transaction.bind(uow).run((nested) => nested.bind(intents).insert(kept)));
    t.deepEqual(await intents.findById(scope, kept.id), kept);
  });

  test(title('a unit of work reached through a bound deps object joins too: a use case run inside another rolls back with it'), async (t) => {
    const { uow, intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    // What a use case does with the deps it was given: a unit of work of its own over its ports.
    const createIntent = (deps: { readonly uow: UnitOfWork; readonly intents: PaymentIntentRepository }) =>
      deps.uow.run((transaction) => transaction.bind(deps.intents).insert(intent));
    await t.throwsAsync(
      uow.run(async (transaction) => {
        await createIntent(transaction.bind({ uow, intents }));
        t.truthy(await transaction.bind(intents).findById(scope, intent.id), 'the outer work sees the use case’s write');
        throw new Error('the outer work fails after the use case returned');
      }),
    );
    t.is(await intents.findById(scope, intent.id), undefined, 'the use case’s write went with the outer rollback');
  });

  test(title('a refusal caught inside the work does not undo the rest of it'), async (t) => {
    const { uow, intents, events } = storage();
    const scope = aScope();
    const first = aPaymentIntent(scope, { merchantOrderId: 'uow-dup' });
    const event = anEvent(scope);
    await uow.run(async (transaction) => {
      const bound = transaction.bind({ intents, events });
      await bound.intents.insert(first);
      const error = await t.throwsAsync(bound.intents.insert(aPaymentIntent(scope, { merchantOrderId: 'uow-dup' })), { instanceOf: CoreError });
      t.is(error?.code, 'merchant_order_id_taken');
      await bound.events.append(event);
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
    const running = uow.run(async (transaction) => {
      await transaction.bind(intents).insert(intent);
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
        uow.run(async (transaction) => {
          const bound = transaction.bind({ intents, events });
          await bound.intents.insert(intent);
          await bound.events.append(
            anEvent(scope, { data: { id: intent.id, object: 'payment_intent', status: 'created', merchant: scope.merchantId, mode: scope.mode } }),
          );
        }),
      ),
    );
    const listed = await intents.list(scope, {}, { limit: 100 });
    t.deepEqual(listed.data.map((intent) => intent.id).sort(), made.map((intent) => intent.id).sort());
    t.is((await events.list(scope, {}, { limit: 100 })).data.length, 10);
  });

  test(title('a port bound to a transaction throws when used after its unit of work ended, committed or rolled back, and writes nothing'), async (t) => {
    const { uow, intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    let committed!: PaymentIntentRepository;
    let committedUow!: UnitOfWork;
    await uow.run(async (transaction) => {
      committed = transaction.bind(intents);
      committedUow = transaction.bind(uow);
      await committed.insert(intent);
    });
    let rolledBack!: PaymentIntentRepository;
    await t.throwsAsync(
      uow.run(async (transaction) => {
        rolledBack = transaction.bind(intents);
        throw new Error('rolled back');
      }),
    );
    const ended = { message: /after its unit of work ended/ };
    const late = aPaymentIntent(scope);
    // `async` turns a throw before the first await into a rejection: either way it must throw.
    await t.throwsAsync(async () => committed.findById(scope, intent.id), ended, 'a read after the commit');
    await t.throwsAsync(async () => committed.insert(late), ended, 'a write after the commit');
    await t.throwsAsync(async () => rolledBack.insert(late), ended, 'a write after the rollback');
    await t.throwsAsync(
      async () => committedUow.run((transaction) => transaction.bind(intents).insert(late)),
      ended,
      'a bound unit of work opens no new transaction once its own ended',
    );
    t.deepEqual(await intents.findById(scope, intent.id), intent, 'what the unit of work wrote is kept');
    t.is(await intents.findById(scope, late.id), undefined, 'nothing was written late');
  });

  test(title('afterCommit through the bound unit of work runs once the commit is visible, never after a rollback'), async (t) => {
    const { uow, intents } = storage();
    const scope = aScope();
    const intent = aPaymentIntent(scope);
    let calledInside: boolean | undefined;
    let called = false;
    let seen: unknown;
    let ran!: () => void;
    const callbackRan = new Promise<void>((resolve) => (ran = resolve));
    await uow.run(async (transaction) => {
      const bound = transaction.bind({ uow, intents });
      await bound.intents.insert(intent);
      bound.uow.afterCommit(async () => {
        called = true;
        // Unbound: what any other reader sees, which is only what was committed.
        seen = await intents.findById(scope, intent.id);
        ran();
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      calledInside = called;
    });
    await callbackRan;
    t.false(calledInside, 'not before the work ended');
    t.deepEqual(seen, intent, 'the callback reads the committed write');

    let rolledBackCalled = false;
    const rolledBack = aPaymentIntent(scope);
    await t.throwsAsync(
      uow.run(async (transaction) => {
        const bound = transaction.bind({ uow, intents });
        await bound.intents.insert(rolledBack);
        bound.uow.afterCommit(async () => {
          rolledBackCalled = true;
        });
        throw new Error('rolled back');
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.false(rolledBackCalled, 'a rolled-back unit of work calls nothing');
    t.is(await intents.findById(scope, rolledBack.id), undefined);
  });

  test(title('bind gives back what reaches no storage as it is, and a view of what does'), async (t) => {
    const { uow, intents } = storage();
    await uow.run(async (transaction) => {
      const settings = { callbackBaseUrl: 'https://pay.example.com', limits: { perDay: 3 } };
      const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
      const deps = { clock, settings, now: () => clock.now() };
      const cyclic: { name: string; self?: object } = { name: 'cycle' };
      cyclic.self = cyclic;
      for (const value of [settings, clock, deps, cyclic, new Date(0), new Map([['k', 'v']])]) t.is(transaction.bind(value), value);
      t.is(transaction.bind(undefined), undefined);
      t.is(transaction.bind(null), null);
      t.is(transaction.bind(42), 42);
      t.is(transaction.bind('text'), 'text');
      const mixed = { clock, intents };
      const bound = transaction.bind(mixed);
      t.not(bound, mixed, 'an object with a port in it is bound');
      t.is(bound.clock, clock, 'its fields that reach no storage stay the same objects');
      t.not(bound.intents, intents, 'its port is the bound one');
    });
  });
}
