import { randomBytes } from 'node:crypto';
import test from 'ava';
import { afterAttempt, armResend, CoreError, publishEvent, withoutUndefined, type PlatformKey, type StoragePorts, type WebhookDelivery } from '@payments/core';
import { CryptoRandomSource } from '@payments/node-runtime';
import { aScope, anEvent, aWebhookEndpoint, T0 } from '../fixtures';
import { sharedStorage, withOwnStorage, type StorageAdapter } from './storage-adapters';

const random = new CryptoRandomSource();
const MIN = 60_000;

async function queue(storage: StoragePorts, scope = aScope(), at = T0): Promise<{ delivery: WebhookDelivery; eventId: string }> {
  const existing = await storage.webhookEndpoints.list(scope);
  if (existing.length === 0) await storage.webhookEndpoints.insert(aWebhookEndpoint(scope));
  const event = anEvent(scope);
  const [delivery] = await storage.uow.run((transaction) => publishEvent(transaction.bind({ ...storage, random }), event, at));
  if (!delivery) throw new Error('nothing queued');
  return { delivery, eventId: event.id };
}

function aPlatformKey(at: Date): PlatformKey {
  return {
    id: `key_${randomBytes(8)
      .toString('hex')
      .toUpperCase()
      .replace(/[^A-Z]/g, 'A')}`,
    publicKey: randomBytes(32).toString('base64'),
    privateKeySealed: 'sealed',
    publishedAt: at,
    activeFrom: at,
    created: at,
  };
}

/** What every WebhookDeliveryRepository (and PlatformKeyRepository) promises. */
export function webhookDeliveryRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} WebhookDeliveryRepository: ${what}`;

  test(title('a published event queues a delivery that reads back whole; a rolled-back one queues none'), async (t) => {
    const s = storage();
    const scope = aScope();
    const { delivery } = await queue(s, scope);
    t.deepEqual(await s.webhookDeliveries.findById(scope, delivery.id), withoutUndefined(delivery));
    t.is(await s.webhookDeliveries.findById(aScope(), delivery.id), undefined, "another merchant's is unknown");
    t.deepEqual(await s.webhookDeliveries.findById({ merchantId: scope.merchantId }, delivery.id), withoutUndefined(delivery), 'no mode: either mode');
    t.is(
      await s.webhookDeliveries.findById({ ...scope, mode: scope.mode === 'live' ? 'test' : 'live' }, delivery.id),
      undefined,
      "the other mode's is unknown",
    );
    t.is(await s.webhookDeliveries.findById({ merchantId: aScope().merchantId }, delivery.id), undefined, "no mode: still not another merchant's");
    await t.throwsAsync(
      s.uow.run(async (transaction) => {
        await publishEvent(transaction.bind({ ...s, random }), anEvent(scope), T0);
        throw new Error('rolled back');
      }),
    );
    t.is((await s.webhookDeliveries.list(scope, { limit: 10 })).data.length, 1);
  });

  test(title('lists newest first by endpoint, paging through starting_after; a foreign cursor is invalid_parameter'), async (t) => {
    const s = storage();
    const scope = aScope();
    const a = await queue(s, scope);
    const b = await queue(s, scope);
    const c = await queue(s, scope);
    const first = await s.webhookDeliveries.list(scope, { limit: 2 });
    t.deepEqual(
      first.data.map((d) => d.id),
      [c.delivery.id, b.delivery.id],
    );
    t.true(first.hasMore);
    const rest = await s.webhookDeliveries.list(scope, { limit: 2, startingAfter: b.delivery.id, endpointId: a.delivery.endpointId });
    t.deepEqual(
      rest.data.map((d) => d.id),
      [a.delivery.id],
    );
    t.false(rest.hasMore);
    t.is((await s.webhookDeliveries.list(scope, { limit: 2, endpointId: 'we_other' })).data.length, 0);
    const error = await t.throwsAsync(s.webhookDeliveries.list(aScope(), { limit: 2, startingAfter: a.delivery.id }));
    t.true(error instanceof CoreError);
  });

  test(title('claims due deliveries with their events under a lease; an attempt is recorded only under the lease it was claimed with'), async (t) => {
    await withOwnStorage(adapter, async (s) => {
      const scope = aScope();
      const { delivery, eventId } = await queue(s, scope);
      const lease = new Date(T0.getTime() + MIN);
      const claimed = await s.webhookDeliveries.claimDue('test', T0, lease, 10);
      t.is(claimed.length, 1);
      t.is(claimed[0].event.id, eventId);
      t.is(claimed[0].delivery.lockedUntil?.getTime(), lease.getTime());
      t.deepEqual(await s.webhookDeliveries.claimDue('test', T0, lease, 10), [], 'leased');
      // The lease runs out (the worker died); another pass takes it over.
      const later = new Date(lease.getTime() + 1);
      const lease2 = new Date(later.getTime() + MIN);
      t.is((await s.webhookDeliveries.claimDue('test', later, lease2, 10)).length, 1);
      // The attempt went to the endpoint's url of the moment (changed since queueing).
      const next = afterAttempt({ ...delivery, url: 'https://hooks.example.com/moved' }, { status: 500 }, later);
      const attempt = {
        id: 'wha_A',
        deliveryId: delivery.id,
        at: later,
        responseStatus: 500,
        latencyMs: 12,
        error: 'HTTP 500',
        apiVersion: '2026-09-01',
        responseBody: '{"error":"database down — ลองใหม่"}',
      };
      t.false(await s.webhookDeliveries.recordAttempt(next, lease, attempt), 'the old lease is gone');
      t.true(await s.webhookDeliveries.recordAttempt(next, lease2, attempt));
      t.deepEqual(await s.webhookDeliveries.listAttempts(delivery.id), [attempt]);
      const stored = (await s.webhookDeliveries.findById(scope, delivery.id))!;
      t.like(stored, { status: 'pending', attempts: 1, responseStatus: 500, lastError: 'HTTP 500', url: 'https://hooks.example.com/moved' });
      t.is(stored.nextRetryAt?.getTime(), later.getTime() + MIN);
      t.is(stored.lockedUntil, undefined);
      t.deepEqual(await s.webhookDeliveries.claimDue('test', later, lease2, 10), [], 'not due before the retry time');
      const health = await s.webhookDeliveries.endpointHealth(delivery.endpointId);
      t.like(health, { attempts: 1, successes: 0, lastError: 'HTTP 500' });
      t.is(health.failingSince?.getTime(), later.getTime());
      t.true(await s.webhookDeliveries.rearm(armResend(stored, later)));
      t.is((await s.webhookDeliveries.claimDue('test', later, lease2, 10)).length, 1, 'a resend makes it due now');
    });
  });

  test(title('many attempts recorded at once: each only under its own lease, and all or nothing'), async (t) => {
    await withOwnStorage(adapter, async (s) => {
      const scope = aScope();
      const [a, b, c, d] = [await queue(s, scope), await queue(s, scope), await queue(s, scope), await queue(s, scope)];
      const lease = new Date(T0.getTime() + MIN);
      t.is((await s.webhookDeliveries.claimDue('test', T0, lease, 10)).length, 4);
      // c's and d's leases run out (their pass died) and another pass takes them over.
      const later = new Date(lease.getTime() + 1);
      const lease2 = new Date(later.getTime() + MIN);
      t.is((await s.webhookDeliveries.claimDue('test', later, lease2, 10, new Set([a.delivery.id, b.delivery.id]))).length, 2);
      const attemptOf = (delivery: WebhookDelivery, status: number) => ({
        id: `wha_${randomBytes(8).toString('hex')}`,
        deliveryId: delivery.id,
        at: later,
        responseStatus: status,
        latencyMs: 7,
        ...(status === 200 ? {} : { error: `HTTP ${status}` }),
      });
      const [attemptA, attemptB, attemptC] = [attemptOf(a.delivery, 200), attemptOf(b.delivery, 500), attemptOf(c.delivery, 200)];
      const held = await s.webhookDeliveries.recordAttempts([
        { next: afterAttempt(a.delivery, { status: 200 }, later), heldUntil: lease, attempt: attemptA },
        { next: afterAttempt(b.delivery, { status: 500 }, later), heldUntil: lease, attempt: attemptB },
        { next: afterAttempt(c.delivery, { status: 200 }, later), heldUntil: lease, attempt: attemptC },
      ]);
      t.deepEqual(held, [true, true, false], "c's lease is no longer the one it was claimed with");
      const stored = async (delivery: WebhookDelivery) => (await s.webhookDeliveries.findById(scope, delivery.id))!;
      t.like(await stored(a.delivery), {
        status: 'delivered',
        attempts: 1,
        responseStatus: 200,
        lockedUntil: undefined,
        nextRetryAt: undefined,
        lastError: undefined,
      });
      t.like(await stored(b.delivery), { status: 'pending', attempts: 1, responseStatus: 500, lastError: 'HTTP 500', lockedUntil: undefined });
      t.is((await stored(b.delivery)).nextRetryAt?.getTime(), later.getTime() + MIN);
      t.like(await stored(c.delivery), { status: 'pending', attempts: 0 });
      t.is((await stored(c.delivery)).lockedUntil?.getTime(), lease2.getTime(), 'still held by the pass that took it over');
      t.deepEqual(await s.webhookDeliveries.listAttempts(a.delivery.id), [attemptA]);
      t.deepEqual(await s.webhookDeliveries.listAttempts(b.delivery.id), [attemptB]);
      t.deepEqual(await s.webhookDeliveries.listAttempts(c.delivery.id), []);
      // One record that cannot be stored (its attempt id is taken) and nothing of the write is.
      await t.throwsAsync(
        s.webhookDeliveries.recordAttempts([
          { next: afterAttempt(c.delivery, { status: 200 }, later), heldUntil: lease2, attempt: attemptOf(c.delivery, 200) },
          { next: afterAttempt(d.delivery, { status: 200 }, later), heldUntil: lease2, attempt: { ...attemptOf(d.delivery, 200), id: attemptA.id } },
        ]),
        { any: true },
      );
      t.is((await stored(c.delivery)).lockedUntil?.getTime(), lease2.getTime());
      t.deepEqual(await s.webhookDeliveries.listAttempts(c.delivery.id), []);
      t.deepEqual(await s.webhookDeliveries.recordAttempts([]), []);
      t.deepEqual(
        await s.webhookDeliveries.recordAttempts([{ next: afterAttempt(c.delivery, { status: 200 }, later), heldUntil: lease2, attempt: attemptC }]),
        [true],
      );
      t.like(await stored(c.delivery), { status: 'delivered', attempts: 1 });
    });
  });

  test(title('a list without a mode has both modes of the merchant, newest first; with one, only that mode'), async (t) => {
    const s = storage();
    const live = aScope('live');
    const test_ = aScope('test', live.merchantId);
    const first = await queue(s, test_);
    const second = await queue(s, live);
    const third = await queue(s, test_);
    const both = { merchantId: live.merchantId };
    t.deepEqual(
      (await s.webhookDeliveries.list(both, { limit: 10 })).data.map((d) => [d.id, d.mode]),
      [
        [third.delivery.id, 'test'],
        [second.delivery.id, 'live'],
        [first.delivery.id, 'test'],
      ],
    );
    // The cursor may name a delivery of either mode.
    t.deepEqual(
      (await s.webhookDeliveries.list(both, { limit: 10, startingAfter: second.delivery.id })).data.map((d) => d.id),
      [first.delivery.id],
    );
    t.deepEqual(
      (await s.webhookDeliveries.list(both, { limit: 10, endpointId: second.delivery.endpointId })).data.map((d) => d.id),
      [second.delivery.id],
    );
    t.deepEqual(
      (await s.webhookDeliveries.list(live, { limit: 10 })).data.map((d) => d.id),
      [second.delivery.id],
    );
    t.deepEqual((await s.webhookDeliveries.list({ merchantId: aScope().merchantId }, { limit: 10 })).data, [], "another merchant's are never listed");
    await t.throwsAsync(s.webhookDeliveries.list({ merchantId: aScope().merchantId }, { limit: 10, startingAfter: first.delivery.id }), {
      instanceOf: CoreError,
    });
  });

  test(title("a claim takes only the asked mode's deliveries"), async (t) => {
    await withOwnStorage(adapter, async (s) => {
      const live = aScope('live');
      const liveOne = await queue(s, live);
      const testOne = await queue(s, aScope('test', live.merchantId));
      const lease = new Date(T0.getTime() + MIN);
      t.deepEqual(
        (await s.webhookDeliveries.claimDue('test', T0, lease, 10)).map((c) => c.delivery.id),
        [testOne.delivery.id],
      );
      t.deepEqual(
        (await s.webhookDeliveries.claimDue('live', T0, lease, 10)).map((c) => c.delivery.id),
        [liveOne.delivery.id],
      );
    });
  });

  test(title('a claim leaves the excluded deliveries (failed items waiting for their next try) unleased'), async (t) => {
    await withOwnStorage(adapter, async (s) => {
      const scope = aScope();
      const waiting = await queue(s, scope);
      const healthy = await queue(s, scope);
      const lease = new Date(T0.getTime() + MIN);
      t.deepEqual(
        (await s.webhookDeliveries.claimDue('test', T0, lease, 1, new Set([waiting.delivery.id]))).map((c) => c.delivery.id),
        [healthy.delivery.id],
      );
      t.deepEqual(
        (await s.webhookDeliveries.claimDue('test', T0, lease, 10)).map((c) => c.delivery.id),
        [waiting.delivery.id],
        'it was not leased',
      );
    });
  });

  test(title('concurrent claimers never get the same delivery'), async (t) => {
    await withOwnStorage(adapter, async (s) => {
      const scope = aScope();
      for (let i = 0; i < 40; i += 1) await queue(s, scope);
      const lease = new Date(T0.getTime() + MIN);
      const passes = await Promise.all(Array.from({ length: 6 }, () => s.webhookDeliveries.claimDue('test', T0, lease, 10)));
      const claimed = passes.flat().map((c) => c.delivery.id);
      t.is(new Set(claimed).size, claimed.length, 'no delivery twice');
      t.is(claimed.length, 40);
    });
  });

  test(title('PlatformKeyRepository: concurrent first keys make exactly one; rotated keys list after it'), async (t) => {
    await withOwnStorage(adapter, async (s) => {
      const results = await Promise.all(Array.from({ length: 5 }, () => s.platformKeys.insertFirst(aPlatformKey(T0))));
      t.true(results.every((keys) => keys.length === 1 && keys[0].id === results[0][0].id));
      const rotated = aPlatformKey(new Date(T0.getTime() + 1000));
      await s.platformKeys.insert(rotated);
      const keys = await s.platformKeys.list();
      t.is(keys.length, 2);
      t.deepEqual(keys[1], rotated);
    });
  });
}
