import test from 'ava';
import { CoreError } from '../../src/errors/core-error';
import { IDEMPOTENCY, RunIdempotently } from '../../src/use-cases/run-idempotently/run-idempotently.use-case';
import { harness } from './harness';

function setup() {
  const h = harness();
  const run = new RunIdempotently(h.storage.idempotency, h.storage.uow, h.clock, h.random);
  const scope = { merchantId: 'mch_1', mode: 'test' as const, key: 'key-1' };
  let performed = 0;
  const request = (fingerprint: string, overrides: Partial<Parameters<RunIdempotently['execute']>[0]> = {}) => ({
    scope,
    fingerprint,
    perform: async () => {
      performed += 1;
      return { status: 201, body: `{"n":${performed}}` };
    },
    refusalToStore: (error: unknown) => (error instanceof CoreError && error.category === 'conflict' ? { status: 409, body: '{"refused":true}' } : undefined),
    ...overrides,
  });
  return { ...h, run, request, performedCount: () => performed };
}

test('the first request runs and a repeat replays its answer without running again', async (t) => {
  const s = setup();
  const first = await s.run.execute(s.request('fp'));
  const second = await s.run.execute(s.request('fp'));
  t.deepEqual(first, { response: { status: 201, body: '{"n":1}' }, replayed: false });
  t.deepEqual(second, { response: { status: 201, body: '{"n":1}' }, replayed: true });
  t.is(s.performedCount(), 1);
});

test('another request under the same key is 422 idempotency_key_reused', async (t) => {
  const s = setup();
  await s.run.execute(s.request('fp'));
  const error = await t.throwsAsync(s.run.execute(s.request('other')));
  t.like(error, { code: 'idempotency_key_reused', category: 'idempotency_mismatch' });
});

test('a repeat while the first still runs is 409 idempotency_key_in_use', async (t) => {
  const s = setup();
  // Another process holds the key and has not finished (its lease is still running).
  await s.storage.idempotency.claim({
    scope: { merchantId: 'mch_1', mode: 'test', key: 'key-1' },
    fingerprint: 'fp',
    token: 'other-process',
    now: s.clock.now(),
    leaseMs: IDEMPOTENCY.leaseMs,
    retentionMs: IDEMPOTENCY.retentionMs,
  });
  const error = await t.throwsAsync(s.run.execute(s.request('fp')));
  t.like(error, { code: 'idempotency_key_in_use', category: 'conflict' });
  t.is(s.performedCount(), 0);
});

test('a domain refusal is remembered and replayed', async (t) => {
  const s = setup();
  const refuse = s.request('fp', { perform: async () => Promise.reject(new CoreError('merchant_order_id_taken', 'conflict', 'taken')) });
  t.deepEqual((await s.run.execute(refuse)).response, { status: 409, body: '{"refused":true}' });
  const replay = await s.run.execute(s.request('fp'));
  t.true(replay.replayed);
  t.is(replay.response.status, 409);
  t.is(s.performedCount(), 0);
});

test('a validation error or a failure forgets the key: the corrected retry runs', async (t) => {
  const s = setup();
  const invalid = s.request('fp', { perform: async () => Promise.reject(new CoreError('invalid_parameter', 'validation', 'bad')) });
  await t.throwsAsync(s.run.execute(invalid), { message: 'bad' });
  const crash = s.request('fp', { perform: async () => Promise.reject(new Error('db down')) });
  await t.throwsAsync(s.run.execute(crash), { message: 'db down' });
  const retry = await s.run.execute(s.request('fp'));
  t.false(retry.replayed);
  t.is(s.performedCount(), 1);
});

test('the work and the remembered answer commit together: failed work leaves no answer and no writes', async (t) => {
  const s = setup();
  const scope = { merchantId: 'mch_1', mode: 'test' as const };
  const writeThenFail = s.request('fp', {
    perform: async () => {
      await s.storage.events.append({ id: 'evt_A', type: 't', merchantId: 'mch_1', mode: 'test', created: s.clock.now(), data: { id: 'x', object: 'x', status: 'x', merchant: 'mch_1', mode: 'test' } });
      throw new Error('crash after a write');
    },
  });
  await t.throwsAsync(s.run.execute(writeThenFail));
  t.is((await s.storage.events.list(scope, { limit: 10 })).data.length, 0);
});

test('a claim whose process died is taken over once its lease runs out', async (t) => {
  const s = setup();
  // Simulate a process killed mid-request: a claim made, never completed nor released.
  const claimed = await s.storage.idempotency.claim({
    scope: { merchantId: 'mch_1', mode: 'test', key: 'key-1' },
    fingerprint: 'fp',
    token: 'dead-process',
    now: s.clock.now(),
    leaseMs: IDEMPOTENCY.leaseMs,
    retentionMs: IDEMPOTENCY.retentionMs,
  });
  t.is(claimed.outcome, 'claimed');
  await t.throwsAsync(s.run.execute(s.request('fp')), { message: /still being processed/ });
  s.clock.advance(IDEMPOTENCY.leaseMs + 1);
  const retried = await s.run.execute(s.request('fp'));
  t.false(retried.replayed);
  t.is(s.performedCount(), 1);
});

test('a key is forgotten after 24 hours', async (t) => {
  const s = setup();
  await s.run.execute(s.request('fp'));
  s.clock.advance(IDEMPOTENCY.retentionMs + 1);
  const again = await s.run.execute(s.request('other'));
  t.false(again.replayed);
});
