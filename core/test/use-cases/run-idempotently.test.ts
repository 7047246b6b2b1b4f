import { randomBytes } from 'node:crypto';
import test from 'ava';
import { AesGcmSecretBox } from '@payments/node-runtime';
import { CoreError } from '../../src/common/core-error';
import { IDEMPOTENCY, RunIdempotently } from '../../src/merchants/use-cases/run-idempotently.use-case';
import { harness } from './harness';

function setup() {
  const h = harness();
  const secrets = new AesGcmSecretBox(randomBytes(32));
  const run = new RunIdempotently({ store: h.storage.idempotency, uow: h.storage.uow, clock: h.clock, random: h.random, secrets });
  const scope = { merchantId: 'mch_1', mode: 'test' as const, caller: 'api', key: 'key-1' };
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
  return { ...h, run, secrets, request, performedCount: () => performed };
}

/** What the store itself holds for a finished key: a claim on it answers the stored record. */
async function storedAnswer(s: ReturnType<typeof setup>, key = 'key-1') {
  const result = await s.storage.idempotency.claim({
    scope: { merchantId: 'mch_1', mode: 'test', caller: 'api', key },
    fingerprint: 'fp',
    token: 'reader',
    now: s.clock.now(),
    leaseMs: IDEMPOTENCY.leaseMs,
    retentionMs: IDEMPOTENCY.retentionMs,
  });
  if (result.outcome !== 'completed') throw new Error(`expected a completed key, got ${result.outcome}`);
  return result.response;
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
    scope: { merchantId: 'mch_1', mode: 'test', caller: 'api', key: 'key-1' },
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

test('20 simultaneous repeats of a finished request all replay it; none is refused as in use', async (t) => {
  const s = setup();
  await s.run.execute(s.request('fp'));
  const repeats = await Promise.all(Array.from({ length: 20 }, () => s.run.execute(s.request('fp'))));
  t.deepEqual(
    repeats,
    Array.from({ length: 20 }, () => ({ response: { status: 201, body: '{"n":1}' }, replayed: true })),
  );
  t.is(s.performedCount(), 1);
});

test('while this process runs a key, a repeat is 409 in use and another request under it is 422, both without running', async (t) => {
  const s = setup();
  let finish!: () => void;
  const first = s.run.execute(s.request('fp', { perform: () => new Promise((resolve) => (finish = () => resolve({ status: 201, body: '{"slow":true}' }))) }));
  // Let the first request find the key free and begin its work.
  while (finish === undefined) await new Promise((resolve) => setImmediate(resolve));
  t.like(await t.throwsAsync(s.run.execute(s.request('fp'))), { code: 'idempotency_key_in_use' });
  t.like(await t.throwsAsync(s.run.execute(s.request('other'))), { code: 'idempotency_key_reused' });
  finish();
  t.deepEqual(await first, { response: { status: 201, body: '{"slow":true}' }, replayed: false });
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
    perform: async ({ transaction }) => {
      if (!transaction) throw new Error('storage-only work runs in the transaction of its claim');
      await transaction.bind(s.storage.events).append({
        id: 'evt_A',
        type: 't',
        merchantId: 'mch_1',
        mode: 'test',
        created: s.clock.now(),
        data: { id: 'x', object: 'x', status: 'x', merchant: 'mch_1', mode: 'test' },
      });
      throw new Error('crash after a write');
    },
  });
  await t.throwsAsync(s.run.execute(writeThenFail));
  t.is((await s.storage.events.list(scope, {}, { limit: 10 })).data.length, 0);
});

test('a claim whose process died is taken over once its lease runs out', async (t) => {
  const s = setup();
  // Simulate a process killed mid-request: a claim made, never completed nor released.
  const claimed = await s.storage.idempotency.claim({
    scope: { merchantId: 'mch_1', mode: 'test', caller: 'api', key: 'key-1' },
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

/** Work that calls out between transactions: its first transaction makes an object and binds it; then `after` runs. */
function boundWork(s: ReturnType<typeof setup>, resumes: (string | undefined)[], after: () => Promise<void>) {
  return s.request('fp', {
    transactional: false,
    perform: async (recovery) => {
      resumes.push(recovery.resume);
      if (recovery.resume !== undefined) return { status: 201, body: JSON.stringify({ id: recovery.resume }) };
      const id = `re_${resumes.length}`;
      await s.storage.uow.run((transaction) => recovery.bind(id, transaction));
      await after();
      return { status: 201, body: JSON.stringify({ id }) };
    },
  });
}

test('recovery points: a failure after the bind committed keeps the key, and the retry resumes with the bound object', async (t) => {
  const s = setup();
  const resumes: (string | undefined)[] = [];
  await t.throwsAsync(s.run.execute(boundWork(s, resumes, () => Promise.reject(new Error('the second transaction failed')))), {
    message: 'the second transaction failed',
  });
  await t.throwsAsync(s.run.execute(s.request('other', { transactional: false })), { code: 'idempotency_key_reused' });
  const retry = await s.run.execute(boundWork(s, resumes, () => Promise.resolve()));
  t.deepEqual(retry, { response: { status: 201, body: '{"id":"re_1"}' }, replayed: false });
  t.deepEqual(resumes, [undefined, 're_1']);
  t.deepEqual(await s.run.execute(boundWork(s, resumes, () => Promise.resolve())), { response: retry.response, replayed: true });
});

test('recovery points: a bind rolled back with its transaction binds nothing, and the failure forgets the key', async (t) => {
  const s = setup();
  await t.throwsAsync(
    s.run.execute(
      s.request('fp', {
        transactional: false,
        perform: (recovery) =>
          s.storage.uow.run(async (transaction) => {
            await recovery.bind('re_rolled_back', transaction);
            throw new Error('the first transaction failed');
          }),
      }),
    ),
  );
  const resumes: (string | undefined)[] = [];
  const retry = await s.run.execute(boundWork(s, resumes, () => Promise.resolve()));
  t.false(retry.replayed);
  t.deepEqual(resumes, [undefined], 'the retry runs from scratch');
});

test('recovery points: after a process died past its bind, the retry waits out the lease, then resumes', async (t) => {
  const s = setup();
  const scope = { merchantId: 'mch_1', mode: 'test' as const, caller: 'api', key: 'key-1' };
  const claimed = await s.storage.idempotency.claim({
    scope,
    fingerprint: 'fp',
    token: 'dead-process',
    now: s.clock.now(),
    leaseMs: IDEMPOTENCY.leaseMs,
    retentionMs: IDEMPOTENCY.retentionMs,
  });
  if (claimed.outcome !== 'claimed') throw new Error('setup: no claim');
  t.true(await s.storage.idempotency.bind(claimed.claim, 'pa_dead'));
  const resumes: (string | undefined)[] = [];
  await t.throwsAsync(s.run.execute(boundWork(s, resumes, () => Promise.resolve())), { code: 'idempotency_key_in_use' });
  s.clock.advance(IDEMPOTENCY.leaseMs);
  const retry = await s.run.execute(boundWork(s, resumes, () => Promise.resolve()));
  t.deepEqual(retry.response, { status: 201, body: '{"id":"pa_dead"}' });
  t.deepEqual(resumes, ['pa_dead']);
  t.false(await s.storage.idempotency.bind(claimed.claim, 'pa_late'), 'the dead claim lost the key');
});

test('a key is forgotten after 24 hours', async (t) => {
  const s = setup();
  await s.run.execute(s.request('fp'));
  s.clock.advance(IDEMPOTENCY.retentionMs + 1);
  const again = await s.run.execute(s.request('other'));
  t.false(again.replayed);
});

test('the stored answer is sealed, and the replay gives back its exact bytes', async (t) => {
  const s = setup();
  const body = '{"checkout_url":"https://pay.example.com/c/UNIQUE-token_value-123","b":"\\u00e9 é"}';
  const first = await s.run.execute(s.request('fp', { perform: async () => ({ status: 201, body }) }));
  const stored = await storedAnswer(s);
  t.is(stored.status, 201);
  t.false(stored.body.includes('UNIQUE-token_value-123'));
  t.false(stored.body.includes('checkout_url'));
  const replay = await s.run.execute(s.request('fp'));
  t.deepEqual(replay, { response: { status: 201, body }, replayed: true });
  t.is(first.response.body, body);
});

test('a stored refusal is sealed too', async (t) => {
  const s = setup();
  const refuse = s.request('fp', { perform: async () => Promise.reject(new CoreError('merchant_order_id_taken', 'conflict', 'taken')) });
  await s.run.execute(refuse);
  t.false((await storedAnswer(s)).body.includes('refused'));
  t.is((await s.run.execute(s.request('fp'))).response.body, '{"refused":true}');
});

test('an answer stored before answers were sealed is still replayed as stored', async (t) => {
  const s = setup();
  const scope = { merchantId: 'mch_1', mode: 'test' as const, caller: 'api', key: 'key-1' };
  const claimed = await s.storage.idempotency.claim({
    scope,
    fingerprint: 'fp',
    token: 'old-release',
    now: s.clock.now(),
    leaseMs: IDEMPOTENCY.leaseMs,
    retentionMs: IDEMPOTENCY.retentionMs,
  });
  if (claimed.outcome !== 'claimed') throw new Error('expected a fresh key');
  await s.storage.idempotency.complete(claimed.claim, { status: 201, body: '{"n":"old"}' }, s.clock.now());
  t.deepEqual(await s.run.execute(s.request('fp')), { response: { status: 201, body: '{"n":"old"}' }, replayed: true });
  t.is(s.performedCount(), 0);
});

test('a stored answer altered in the database is never replayed', async (t) => {
  const s = setup();
  await s.run.execute(s.request('fp'));
  const scope = { merchantId: 'mch_1', mode: 'test' as const, caller: 'api', key: 'key-1' };
  const key = JSON.stringify([scope.merchantId, scope.mode, scope.caller, scope.key]);
  const record = s.storage.store.tables.idempotency.get(key);
  if (!record?.response) throw new Error('expected a stored answer');
  // One character inside the ciphertext, where every bit is data.
  const sealed = record.response.body;
  const at = sealed.length - 10;
  const altered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
  s.storage.store.tables.idempotency.set(key, { ...record, response: { status: 201, body: altered } });
  await t.throwsAsync(s.run.execute(s.request('fp')));
  t.is(s.performedCount(), 1);
});
