import test from 'ava';
import { CoreError } from '@payments/core';
import { aPaymentIntent, aScope, anEvent } from '../fixtures';
import { sharedStorage, sqlStorageAdapter } from './storage-adapters';

/**
 * Races only a real database can lose: many connections (on MySQL / MariaDB) writing the same
 * rule at once. The unique index, not a read-then-write check, must decide.
 */
const storage = sharedStorage(sqlStorageAdapter);
const title = (what: string): string => `${sqlStorageAdapter.name} storage under concurrency: ${what}`;

test(title('of 20 concurrent units of work inserting one merchant_order_id exactly one commits'), async (t) => {
  const { uow, intents, events } = storage();
  const scope = aScope();
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, () =>
      uow.run(async (transaction) => {
        const bound = transaction.bind({ intents, events });
        const intent = aPaymentIntent(scope, { merchantOrderId: 'RACE-1' });
        await bound.intents.insert(intent);
        await bound.events.append(
          anEvent(scope, { data: { id: intent.id, object: 'payment_intent', status: 'created', merchant: scope.merchantId, mode: scope.mode } }),
        );
        return intent.id;
      }),
    ),
  );
  const committed = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  t.is(committed.length, 1);
  for (const result of results) {
    if (result.status === 'rejected') {
      t.true(result.reason instanceof CoreError, String(result.reason));
      t.like(result.reason, { code: 'merchant_order_id_taken' });
    }
  }
  const listed = await intents.list(scope, {}, { limit: 100 });
  t.deepEqual(
    listed.data.map((intent) => intent.id),
    committed,
  );
  const announced = await events.list(scope, {}, { limit: 100 });
  t.deepEqual(
    announced.data.map((event) => event.data.id),
    committed,
    'only the winner’s event was kept',
  );
});

test(title('concurrent units of work inserting distinct intents all commit'), async (t) => {
  const { uow, intents, events } = storage();
  const scope = aScope();
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      uow.run(async (transaction) => {
        const bound = transaction.bind({ intents, events });
        await bound.intents.insert(aPaymentIntent(scope, { merchantOrderId: `PARALLEL-${i}` }));
        await bound.events.append(anEvent(scope));
      }),
    ),
  );
  t.is((await intents.list(scope, {}, { limit: 100 })).data.length, 20);
  t.is((await events.list(scope, {}, { limit: 100 })).data.length, 20);
});
