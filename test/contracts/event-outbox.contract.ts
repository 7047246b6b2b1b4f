import test from 'ava';
import { CoreError, type DomainEvent } from '@payments/core';
import { aScope, anEvent, ids, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

/** What every EventOutbox promises. */
export function eventOutboxContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} EventOutbox: ${what}`;
  const idsOf = (events: DomainEvent[]): string[] => events.map((event) => event.id);

  test(title('appended events list newest first, page by page through starting_after'), async (t) => {
    const { events } = storage();
    const scope = aScope('live');
    const appended: DomainEvent[] = [];
    for (let i = 0; i < 5; i += 1) {
      // Same second for all: order must come from the append order.
      const event = anEvent(scope, { type: i === 4 ? 'settlement.paid' : 'payment_intent.succeeded' });
      await events.append(event);
      appended.push(event);
    }
    const [e1, e2, e3, e4, e5] = idsOf(appended);

    const first = await events.list(scope, {}, { limit: 2 });
    t.deepEqual(idsOf(first.data), [e5, e4]);
    t.true(first.hasMore);
    const second = await events.list(scope, {}, { limit: 2, startingAfter: e4 });
    t.deepEqual(idsOf(second.data), [e3, e2]);
    t.true(second.hasMore);
    const last = await events.list(scope, {}, { limit: 2, startingAfter: e2 });
    t.deepEqual(idsOf(last.data), [e1]);
    t.false(last.hasMore);
    t.deepEqual(first.data[0], appended[4], 'an event reads back whole');
  });

  test(title('event data round-trips, settlement amounts included'), async (t) => {
    const { events } = storage();
    const scope = aScope();
    const event = anEvent(scope, {
      type: 'settlement.paid',
      created: new Date(T0.getTime() + 7_000),
      data: { id: 'st_ABC', object: 'settlement', status: 'paid', merchant: scope.merchantId, mode: scope.mode, amount: { amount: 123_456, currency: 'THB' } },
    });
    await events.append(event);
    t.deepEqual((await events.list(scope, {}, { limit: 1 })).data, [event]);
  });

  test(title("only the scope's events are listed"), async (t) => {
    const { events } = storage();
    const scope = aScope('test');
    const mine = anEvent(scope);
    await events.append(mine);
    await events.append(anEvent(aScope('live', scope.merchantId)));
    await events.append(anEvent(aScope('test')));
    const page = await events.list(scope, {}, { limit: 10 });
    t.deepEqual(idsOf(page.data), [mine.id]);
    t.false(page.hasMore);
  });

  test(title("an unknown cursor, or another merchant's or mode's event, is invalid_parameter"), async (t) => {
    const { events } = storage();
    const scope = aScope('test');
    await events.append(anEvent(scope));
    const otherMode = anEvent(aScope('live', scope.merchantId));
    const otherMerchant = anEvent(aScope('test'));
    await events.append(otherMode);
    await events.append(otherMerchant);
    for (const cursor of [ids.event(), otherMode.id, otherMerchant.id]) {
      const error = await t.throwsAsync(events.list(scope, {}, { limit: 10, startingAfter: cursor }), { instanceOf: CoreError });
      t.is(error?.code, 'invalid_parameter');
      t.is(error?.param, 'starting_after');
    }
  });

  test(title('a type filter lists only that type, still newest first and paged'), async (t) => {
    const { events } = storage();
    const scope = aScope();
    const appended: DomainEvent[] = [];
    for (const type of ['payment_intent.succeeded', 'refund.created', 'payment_intent.succeeded', 'refund.created', 'refund.created']) {
      const event = anEvent(scope, { type });
      await events.append(event);
      appended.push(event);
    }
    const [, r1, , r2, r3] = idsOf(appended);
    const first = await events.list(scope, { type: 'refund.created' }, { limit: 2 });
    t.deepEqual(idsOf(first.data), [r3, r2]);
    t.true(first.hasMore);
    t.deepEqual(idsOf((await events.list(scope, { type: 'refund.created' }, { limit: 2, startingAfter: r2 })).data), [r1]);
    t.deepEqual((await events.list(scope, { type: 'dispute.opened' }, { limit: 2 })).data, []);
  });

  test(title("findById reads one event of the scope; another merchant's or mode's is undefined"), async (t) => {
    const { events } = storage();
    const scope = aScope('test');
    const mine = anEvent(scope);
    await events.append(mine);
    t.deepEqual(await events.findById(scope, mine.id), mine);
    t.is(await events.findById(aScope('live', scope.merchantId), mine.id), undefined);
    t.is(await events.findById(aScope('test'), mine.id), undefined);
    t.is(await events.findById(scope, ids.event()), undefined);
  });

  test(title('listForPaymentIntent lists every event concerning the intent, oldest first, in the scope only'), async (t) => {
    const { events } = storage();
    const scope = aScope('test');
    const intentId = ids.paymentIntent();
    const own = anEvent(scope, {
      paymentIntentId: intentId,
      data: { id: intentId, object: 'payment_intent', status: 'succeeded', merchant: scope.merchantId, mode: 'test' },
    });
    const refund = anEvent(scope, {
      type: 'refund.created',
      paymentIntentId: intentId,
      data: { id: 're_ABC', object: 'refund', status: 'pending', merchant: scope.merchantId, mode: 'test', payment_intent: intentId },
    });
    const dispute = anEvent(scope, {
      type: 'dispute.opened',
      paymentIntentId: intentId,
      data: { id: 'dp_ABC', object: 'dispute', status: 'opened', merchant: scope.merchantId, mode: 'test' },
    });
    const settlement = anEvent(scope, {
      type: 'settlement.paid',
      paymentIntentId: undefined,
      data: { id: 'st_ABC', object: 'settlement', status: 'paid', merchant: scope.merchantId, mode: 'test' },
    });
    await events.append(own);
    await events.append(anEvent(scope));
    await events.append(refund);
    await events.append(settlement);
    await events.append(anEvent(aScope('live', scope.merchantId), { paymentIntentId: intentId }));
    await events.append(dispute);
    t.deepEqual(await events.listForPaymentIntent(scope, intentId), [own, refund, dispute]);
    t.deepEqual(await events.listForPaymentIntent(scope, ids.paymentIntent()), []);
  });

  test(title('an account without events lists an empty page'), async (t) => {
    t.deepEqual(await storage().events.list(aScope(), {}, { limit: 10 }), { data: [], hasMore: false });
  });
}
