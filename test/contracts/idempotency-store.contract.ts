import test from 'ava';
import type { ClaimRequest, ClaimResult, IdempotencyClaim, IdempotencyScope, IdempotencyStore, Mode } from '@payments/core';
import { ids, T0 } from '../fixtures';
import { sharedStorage, withOwnStorage, type StorageAdapter } from './storage-adapters';

const LEASE_MS = 60_000;
const RETENTION_MS = 24 * 3600 * 1000;
const at = (ms: number): Date => new Date(T0.getTime() + ms);

function aKeyScope(mode: Mode = 'test', merchantId: string = ids.merchant()): IdempotencyScope {
  return { merchantId, mode, caller: 'api', key: `key-${ids.token()}` };
}

function request(scope: IdempotencyScope, overrides: Partial<ClaimRequest> = {}): ClaimRequest {
  return { scope, fingerprint: 'fp-A', token: ids.token(), now: T0, leaseMs: LEASE_MS, retentionMs: RETENTION_MS, ...overrides };
}

function claimOf(result: ClaimResult): IdempotencyClaim {
  if (result.outcome !== 'claimed') throw new Error(`expected a claim, got ${result.outcome}`);
  return result.claim;
}

async function claimOrFail(store: IdempotencyStore, claimRequest: ClaimRequest): Promise<IdempotencyClaim> {
  return claimOf(await store.claim(claimRequest));
}

/** What every IdempotencyStore promises (docs/architecture.md, "A `/v1` request"). */
export function idempotencyStoreContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} IdempotencyStore: ${what}`;

  test(title('of 20 concurrent claims of one key exactly one is claimed; the rest see it in flight'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const results = await Promise.all(Array.from({ length: 20 }, () => idempotency.claim(request(scope))));
    t.is(results.filter((result) => result.outcome === 'claimed').length, 1);
    t.deepEqual(
      results.filter((result) => result.outcome !== 'claimed'),
      Array.from({ length: 19 }, () => ({ outcome: 'in_flight', fingerprint: 'fp-A' })),
    );
  });

  test(title('the claim names the request that made it'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope('live');
    const claimRequest = request(scope, { fingerprint: 'fp-claim' });
    t.deepEqual(await idempotency.claim(claimRequest), {
      outcome: 'claimed',
      claim: { scope, fingerprint: 'fp-claim', token: claimRequest.token },
    });
  });

  test(title('a completed key replays the stored status and exact body, with its fingerprint'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const claim = await claimOrFail(idempotency, request(scope));
    const body = JSON.stringify({ id: 'pi_1', note: 'ชำระแล้ว ✓ 🎉', big: 'x'.repeat(70_000) });
    t.true(await idempotency.complete(claim, { status: 201, body }, at(100)));
    for (const fingerprint of ['fp-A', 'fp-B']) {
      t.deepEqual(await idempotency.claim(request(scope, { fingerprint, now: at(200) })), {
        outcome: 'completed',
        fingerprint: 'fp-A',
        response: { status: 201, body },
      });
    }
  });

  test(title('a repeat while in flight reports the first request’s fingerprint'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    await claimOrFail(idempotency, request(scope, { fingerprint: 'fp-first' }));
    t.deepEqual(await idempotency.claim(request(scope, { fingerprint: 'fp-other', now: at(1_000) })), {
      outcome: 'in_flight',
      fingerprint: 'fp-first',
    });
  });

  test(title('keys are scoped to merchant, mode and caller'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope('test');
    const claim = await claimOrFail(idempotency, request(scope));
    t.is((await idempotency.claim(request({ ...scope, mode: 'live' }))).outcome, 'claimed');
    t.is((await idempotency.claim(request({ ...scope, merchantId: ids.merchant() }))).outcome, 'claimed');
    const dashboardUser = { ...scope, caller: 'dashboard:usr_someone' };
    t.is((await idempotency.claim(request(dashboardUser, { fingerprint: 'fp-user' }))).outcome, 'claimed', "a dashboard user's key is not the API's");
    t.true(await idempotency.complete(claim, { status: 201, body: '{"api":true}' }, T0));
    t.is(
      await idempotency.find(dashboardUser, at(1)).then((known) => known?.outcome),
      'in_flight',
      'completing one caller’s key answers nothing for the other',
    );
    t.is((await idempotency.claim(request({ ...scope, key: scope.key.toUpperCase() }))).outcome, 'claimed', 'keys are case-sensitive');
  });

  test(title('after the lease runs out the key is taken over, and the old claim can no longer complete'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const dead = await claimOrFail(idempotency, request(scope, { fingerprint: 'fp-dead' }));
    t.is((await idempotency.claim(request(scope, { now: at(LEASE_MS - 1) }))).outcome, 'in_flight');
    const heir = await claimOrFail(idempotency, request(scope, { fingerprint: 'fp-heir', now: at(LEASE_MS) }));
    t.not(heir.token, dead.token);
    t.false(await idempotency.complete(dead, { status: 200, body: 'late' }, at(LEASE_MS + 1)));
    t.deepEqual(await idempotency.claim(request(scope, { now: at(LEASE_MS + 2) })), { outcome: 'in_flight', fingerprint: 'fp-heir' });
    t.true(await idempotency.complete(heir, { status: 200, body: 'heir' }, at(LEASE_MS + 3)));
    const replay = await idempotency.claim(request(scope, { now: at(LEASE_MS + 4) }));
    t.deepEqual(replay, { outcome: 'completed', fingerprint: 'fp-heir', response: { status: 200, body: 'heir' } });
  });

  test(title('a claim whose lease ran out can still complete if nobody took it over'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const slow = await claimOrFail(idempotency, request(scope));
    t.true(await idempotency.complete(slow, { status: 201, body: 'slow' }, at(LEASE_MS * 3)));
    t.is((await idempotency.claim(request(scope, { now: at(LEASE_MS * 4) }))).outcome, 'completed');
  });

  test(title('of 20 concurrent takeovers of an expired lease exactly one is claimed'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    await claimOrFail(idempotency, request(scope));
    const results = await Promise.all(Array.from({ length: 20 }, () => idempotency.claim(request(scope, { now: at(LEASE_MS + 1) }))));
    t.is(results.filter((result) => result.outcome === 'claimed').length, 1);
    t.is(results.filter((result) => result.outcome === 'in_flight').length, 19);
  });

  test(title('release frees the key for a corrected retry'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const refused = await claimOrFail(idempotency, request(scope, { fingerprint: 'fp-invalid' }));
    await idempotency.release(refused);
    const retry = await idempotency.claim(request(scope, { fingerprint: 'fp-corrected', now: at(10) }));
    t.is(retry.outcome, 'claimed');
    t.false(await idempotency.complete(refused, { status: 400, body: 'stale' }, at(20)), 'the released claim is gone');
  });

  test(title("a lost claim's release leaves the new owner's claim alone, and a completed key stays completed"), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const dead = await claimOrFail(idempotency, request(scope));
    const heir = await claimOrFail(idempotency, request(scope, { fingerprint: 'fp-heir', now: at(LEASE_MS) }));
    await idempotency.release(dead);
    t.deepEqual(await idempotency.claim(request(scope, { now: at(LEASE_MS + 1) })), { outcome: 'in_flight', fingerprint: 'fp-heir' });
    t.true(await idempotency.complete(heir, { status: 201, body: 'done' }, at(LEASE_MS + 2)));
    await idempotency.release(heir);
    t.is((await idempotency.claim(request(scope, { now: at(LEASE_MS + 3) }))).outcome, 'completed');
  });

  test(title('a key older than its retention is forgotten and claimed anew'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const claim = await claimOrFail(idempotency, request(scope, { retentionMs: 10_000 }));
    t.true(await idempotency.complete(claim, { status: 201, body: 'old' }, at(1)));
    t.is((await idempotency.claim(request(scope, { fingerprint: 'fp-new', now: at(9_999), retentionMs: 10_000 }))).outcome, 'completed');
    const fresh = await idempotency.claim(request(scope, { fingerprint: 'fp-new', now: at(10_000), retentionMs: 10_000 }));
    t.is(fresh.outcome, 'claimed');
    t.false(await idempotency.complete(claim, { status: 201, body: 'old again' }, at(10_001)));
  });

  test(title('of 20 concurrent claims of a key past its retention exactly one is claimed'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const claim = await claimOrFail(idempotency, request(scope, { retentionMs: 10_000 }));
    t.true(await idempotency.complete(claim, { status: 201, body: 'old' }, at(1)));
    const results = await Promise.all(Array.from({ length: 20 }, () => idempotency.claim(request(scope, { now: at(20_000) }))));
    t.is(results.filter((result) => result.outcome === 'claimed').length, 1);
    t.is(results.filter((result) => result.outcome === 'in_flight').length, 19);
  });

  test(title('an answer completed inside a unit of work that rolls back is not kept'), async (t) => {
    const { idempotency, uow } = storage();
    const scope = aKeyScope();
    const claim = await claimOrFail(idempotency, request(scope));
    await t.throwsAsync(
      uow.run(async (transaction) => {
        t.true(await transaction.bind(idempotency).complete(claim, { status: 201, body: 'rolled back' }, at(10)));
        throw new Error('the request’s writes failed');
      }),
    );
    t.is((await idempotency.claim(request(scope, { now: at(20) }))).outcome, 'in_flight', 'the key is still owned, not answered');
    await uow.run(async (transaction) => {
      t.true(await transaction.bind(idempotency).complete(claim, { status: 201, body: 'committed' }, at(30)));
    });
    const replay = await idempotency.claim(request(scope, { now: at(40) }));
    t.deepEqual(replay, { outcome: 'completed', fingerprint: 'fp-A', response: { status: 201, body: 'committed' } });
  });

  test(title('find reads without claiming: free, in flight, answered, forgotten or abandoned'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    t.is(await idempotency.find(scope, T0), undefined);
    t.is(await idempotency.find(scope, T0), undefined, 'finding claimed nothing');
    const claim = await claimOrFail(idempotency, request(scope, { fingerprint: 'fp-find' }));
    t.deepEqual(await idempotency.find(scope, at(1)), { outcome: 'in_flight', fingerprint: 'fp-find' });
    t.is(await idempotency.find(scope, at(LEASE_MS)), undefined, 'a claim whose lease ran out may be taken over');
    t.true(await idempotency.complete(claim, { status: 201, body: 'answer' }, at(2)));
    t.deepEqual(await idempotency.find(scope, at(3)), { outcome: 'completed', fingerprint: 'fp-find', response: { status: 201, body: 'answer' } });
    t.is(await idempotency.find(scope, at(RETENTION_MS)), undefined, 'forgotten after its retention');
  });

  test(title('a claim made inside a unit of work commits with it, or is gone with its rollback'), async (t) => {
    const { idempotency, uow } = storage();
    const scope = aKeyScope();
    await t.throwsAsync(
      uow.run(async (transaction) => {
        t.is((await transaction.bind(idempotency).claim(request(scope))).outcome, 'claimed');
        throw new Error('the request’s work failed');
      }),
    );
    t.is(await idempotency.find(scope, at(1)), undefined, 'the rollback freed the key');
    await uow.run(async (transaction) => {
      const bound = transaction.bind(idempotency);
      const claim = claimOf(await bound.claim(request(scope, { now: at(2) })));
      t.true(await bound.complete(claim, { status: 201, body: 'one commit' }, at(3)));
    });
    t.deepEqual(await idempotency.claim(request(scope, { now: at(4) })), {
      outcome: 'completed',
      fingerprint: 'fp-A',
      response: { status: 201, body: 'one commit' },
    });
  });

  // Two open transactions at once need a server: the embedded adapters run one at a time.
  if (adapter.name === 'mysql') {
    test(title('a claim another unit of work holds uncommitted is reported in flight at once, not waited for'), async (t) => {
      // The server's own lock wait is 50 s: a claim that waited for the owner would end this test.
      t.timeout(20_000);
      const { idempotency, uow } = storage();
      const scope = aKeyScope();
      let letGo!: () => void;
      const held = new Promise<void>((resolve) => (letGo = resolve));
      let claimedInside!: () => void;
      const inside = new Promise<void>((resolve) => (claimedInside = resolve));
      const owner = uow.run(async (transaction) => {
        const bound = transaction.bind(idempotency);
        const claim = claimOf(await bound.claim(request(scope)));
        claimedInside();
        await held;
        t.true(await bound.complete(claim, { status: 201, body: 'owner' }, at(5)));
      });
      await inside;
      // Before the fix the INSERT waited for the owner's row lock, which this test only lets go after.
      const outcomes = await Promise.all([
        idempotency.claim(request(scope, { now: at(1) })),
        uow.run((transaction) => transaction.bind(idempotency).claim(request(scope, { now: at(1) }))),
      ]);
      t.deepEqual(outcomes, [{ outcome: 'in_flight' }, { outcome: 'in_flight' }]);
      letGo();
      await owner;
      t.deepEqual(await idempotency.claim(request(scope, { now: at(6) })), {
        outcome: 'completed',
        fingerprint: 'fp-A',
        response: { status: 201, body: 'owner' },
      });
    });
  }

  test(title('a bound claim is never forgotten: released, it is resumable at once, by its own request only, with its recovery point'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const first = await claimOrFail(idempotency, request(scope));
    t.true(await idempotency.bind(first, 're_FIRST'));
    t.true(await idempotency.bind(first, 're_FIRST'), 'binding the same object again holds');
    await idempotency.release(first);
    t.deepEqual(await idempotency.find(scope, at(1)), { outcome: 'resumable', fingerprint: 'fp-A' });
    t.deepEqual(await idempotency.claim(request(scope, { fingerprint: 'fp-B', now: at(2) })), { outcome: 'resumable', fingerprint: 'fp-A' });
    const retry = await idempotency.claim(request(scope, { now: at(3) }));
    t.like(retry, { outcome: 'claimed', recoveryPoint: 're_FIRST' });
    t.deepEqual(await idempotency.claim(request(scope, { now: at(4) })), { outcome: 'in_flight', fingerprint: 'fp-A' }, 'the retry holds a lease');
    t.false(await idempotency.complete(first, { status: 201, body: 'stale' }, at(5)), 'the first claim lost the key');
    t.true(await idempotency.complete(claimOf(retry), { status: 201, body: 'resumed' }, at(6)));
    t.deepEqual(await idempotency.find(scope, at(7)), { outcome: 'completed', fingerprint: 'fp-A', response: { status: 201, body: 'resumed' } });
  });

  test(title("a bound claim whose process died is taken over with its recovery point once the lease runs out; the dead claim's bind then fails"), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const dead = await claimOrFail(idempotency, request(scope));
    t.true(await idempotency.bind(dead, 'pa_DEAD'));
    t.deepEqual(await idempotency.claim(request(scope, { now: at(LEASE_MS - 1) })), { outcome: 'in_flight', fingerprint: 'fp-A' });
    t.like(await idempotency.claim(request(scope, { now: at(LEASE_MS) })), { outcome: 'claimed', recoveryPoint: 'pa_DEAD' });
    t.false(await idempotency.bind(dead, 'pa_OTHER'));
  });

  test(title('a bind rolled back with its unit of work binds nothing: the release forgets the key'), async (t) => {
    const { idempotency, uow } = storage();
    const scope = aKeyScope();
    const claim = await claimOrFail(idempotency, request(scope));
    await t.throwsAsync(
      uow.run(async (transaction) => {
        t.true(await transaction.bind(idempotency).bind(claim, 're_GONE'));
        throw new Error('the transaction that made it failed');
      }),
    );
    await idempotency.release(claim);
    t.is(await idempotency.find(scope, at(1)), undefined);
    const fresh = await idempotency.claim(request(scope, { now: at(2) }));
    t.deepEqual(fresh, { outcome: 'claimed', claim: { scope, fingerprint: 'fp-A', token: claimOf(fresh).token } });
  });

  test(title('a resumable key past its retention is forgotten'), async (t) => {
    const { idempotency } = storage();
    const scope = aKeyScope();
    const claim = await claimOrFail(idempotency, request(scope, { retentionMs: 10_000 }));
    t.true(await idempotency.bind(claim, 're_OLD'));
    await idempotency.release(claim);
    t.is(await idempotency.find(scope, at(10_000)), undefined);
    const fresh = await idempotency.claim(request(scope, { fingerprint: 'fp-new', now: at(10_000) }));
    t.is(fresh.outcome, 'claimed');
    t.false('recoveryPoint' in fresh);
  });

  test(title('purgeExpired deletes exactly the keys past their retention'), async (t) => {
    await withOwnStorage(adapter, async ({ idempotency }) => {
      const short = aKeyScope();
      const shortInFlight = aKeyScope();
      const long = aKeyScope();
      const done = await claimOrFail(idempotency, request(short, { retentionMs: 1_000 }));
      t.true(await idempotency.complete(done, { status: 200, body: 'short' }, at(1)));
      await claimOrFail(idempotency, request(shortInFlight, { retentionMs: 1_000 }));
      const kept = await claimOrFail(idempotency, request(long, { retentionMs: 5_000 }));
      t.true(await idempotency.complete(kept, { status: 200, body: 'long' }, at(1)));

      t.is(await idempotency.purgeExpired(at(999)), 0);
      t.is(await idempotency.purgeExpired(at(1_000)), 2);
      t.is(await idempotency.purgeExpired(at(1_000)), 0);
      t.is((await idempotency.claim(request(long, { now: at(1_001) }))).outcome, 'completed');
      t.is((await idempotency.claim(request(short, { now: at(1_001) }))).outcome, 'claimed');
    });
  });
}
