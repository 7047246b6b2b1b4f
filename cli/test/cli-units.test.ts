import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import test from 'ava';
import {
  ConflictError,
  NotFoundError,
  ApiConnectionError,
  AuthenticationError,
  RateLimitError,
  InvalidRequestError,
  ApiError,
  Payments,
  type Event,
  type RefundStatus,
} from '@payments/sdk';
import { baseline, handled, LOOKBACK_MS, pollEvents, type FollowState } from '../src/event-follower.js';
import { ConfigStore, configDir, keyPrefix } from '../src/config.js';
import { CliError, describeError, errorEnvelope, EXIT, exitCodeOf, signalExitCode, UsageError } from '../src/exit-codes.js';
import { applyOverrides, FIXTURES_DIR, loadScenario } from '../src/commands/trigger.js';
import { parseDuration } from '../src/values.js';
import { Output } from '../src/output.js';
import { reached, waitForRefund } from '../src/wait.js';

test('durations: 30s, 2m, 500ms, 1h and bare seconds', (t) => {
  t.is(parseDuration('30s', 'timeout'), 30_000);
  t.is(parseDuration('2m', 'timeout'), 120_000);
  t.is(parseDuration('500ms', 'timeout'), 500);
  t.is(parseDuration('1h', 'timeout'), 3_600_000);
  t.is(parseDuration('5', 'timeout'), 5000);
  t.throws(() => parseDuration('soon', 'timeout'), { instanceOf: UsageError, message: '--timeout takes a duration such as 30s, 2m or 500ms, not "soon".' });
});

test('wait: succeeded is also met by channel_settled, nothing else is met by a later status', (t) => {
  t.true(reached('succeeded', ['succeeded']));
  t.true(reached('channel_settled', ['succeeded']));
  t.false(reached('processing', ['succeeded']));
  t.false(reached('succeeded', ['processing']));
  t.false(reached('failed', ['succeeded']));
  t.true(reached('failed', ['succeeded', 'failed']));
});

/** A client whose GET /v1/refunds/{id} answers the statuses in turn (the last one from then on), and the paths it was asked. */
function refundStatuses(...statuses: RefundStatus[]): { client: Payments; paths: string[] } {
  const paths: string[] = [];
  const httpClient = {
    request: ({ url }: { url: string }) => {
      const id = new URL(url).pathname.split('/').pop() ?? '';
      paths.push(new URL(url).pathname);
      const status = statuses.length > 1 ? statuses.shift() : statuses[0];
      const body = {
        id,
        object: 'refund',
        mode: 'test',
        payment_intent: 'pi_1',
        amount: 100,
        currency: 'THB',
        status,
        metadata: {},
        created: '2026-09-01T00:00:00Z',
      };
      return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
    },
  };
  return { client: new Payments('sk_test_0123456789abcdefghijklmnop', { baseUrl: 'http://127.0.0.1:9', httpClient }), paths };
}

test('wait for a refund: returns once it has the status, fails at once when it ended otherwise, times out', async (t) => {
  const out = new Output(false, new PassThrough(), new PassThrough());
  const pending = refundStatuses('pending', 'pending', 'succeeded');
  t.is((await waitForRefund(pending.client, 're_A', ['succeeded'], { timeoutMs: 10_000, out })).status, 'succeeded');
  t.deepEqual(pending.paths, ['/v1/refunds/re_A', '/v1/refunds/re_A', '/v1/refunds/re_A']);
  await t.throwsAsync(waitForRefund(refundStatuses('pending', 'failed').client, 're_B', ['succeeded'], { timeoutMs: 10_000, out }), {
    message: 're_B is failed and can no longer become succeeded.',
  });
  t.is((await waitForRefund(refundStatuses('failed').client, 're_C', ['succeeded', 'failed'], { timeoutMs: 10_000, out })).status, 'failed');
  await t.throwsAsync(waitForRefund(refundStatuses('pending').client, 're_D', ['succeeded'], { timeoutMs: 300, out }), {
    message: 'Timed out after 300ms: re_D is pending, not succeeded.',
  });
});

test('exit codes by error category are stable', (t) => {
  t.deepEqual(EXIT, {
    ok: 0,
    apiError: 1,
    usage: 2,
    authentication: 3,
    invalidRequest: 4,
    notFound: 5,
    conflict: 6,
    rateLimited: 7,
    connection: 8,
    waitFailed: 9,
    interrupted: 130,
  });
  t.is(signalExitCode('SIGINT'), 130);
  t.is(signalExitCode('SIGTERM'), 143);
  t.is(exitCodeOf(new AuthenticationError({ message: 'x' })), 3);
  t.is(exitCodeOf(new InvalidRequestError({ message: 'x' })), 4);
  t.is(exitCodeOf(new NotFoundError({ message: 'x' })), 5);
  t.is(exitCodeOf(new ConflictError({ message: 'x' })), 6);
  t.is(exitCodeOf(new RateLimitError({ message: 'x' })), 7);
  t.is(exitCodeOf(new ApiConnectionError({ message: 'x' })), 8);
  t.is(exitCodeOf(new ApiError({ message: 'x' })), 1);
  t.is(exitCodeOf(new UsageError('x')), 2);
  t.is(
    describeError(new NotFoundError({ message: 'No such\nthing.', code: 'resource_not_found', statusCode: 404, requestId: 'req_1' })),
    'Error: No such thing. (code resource_not_found, status 404, request req_1)',
  );
});

test('--json errors: the API envelope, with the API code or the CLI one for its own errors', (t) => {
  t.deepEqual(errorEnvelope(new NotFoundError({ message: 'No such\nthing.', code: 'resource_not_found', statusCode: 404, requestId: 'req_1', param: 'id' })), {
    error: { code: 'resource_not_found', message: 'No such thing.', param: 'id', request_id: 'req_1' },
  });
  t.deepEqual(errorEnvelope(new ApiConnectionError({ message: 'Could not reach the API.' })), {
    error: { code: 'connection_error', message: 'Could not reach the API.' },
  });
  t.deepEqual(errorEnvelope(new UsageError('--amount is required.')), { error: { code: 'usage', message: '--amount is required.' } });
  t.deepEqual(errorEnvelope(new CliError('Timed out.', EXIT.waitFailed)), { error: { code: 'wait_failed', message: 'Timed out.' } });
  t.deepEqual(errorEnvelope(new CliError('Stopped.', 130)), { error: { code: 'interrupted', message: 'Stopped.' } });
  t.deepEqual(errorEnvelope(new Error('boom')), { error: { code: 'api_error', message: 'boom' } });
});

test('trigger --override sets a field of a request body, keeping its type', (t) => {
  const scenario = loadScenario(join(FIXTURES_DIR, 'refund.failed.json'));
  const params = (s: typeof scenario, index: number) => s.steps[index]?.params;
  // No step named: the first request body.
  const first = applyOverrides(scenario, ['amount=1006', 'currency=PHP', 'metadata.order=A1', 'metadata.count=3', 'metadata.flags={"x":true}']);
  t.deepEqual(params(first, 0), {
    amount: 1006,
    currency: 'PHP',
    merchant_order_id: 'trigger-{{run}}',
    description: 'payments trigger refund.failed',
    metadata: { order: 'A1', count: 3, flags: { x: true } },
  });
  t.deepEqual(
    params(scenario, 0),
    { amount: 25000, currency: 'THB', merchant_order_id: 'trigger-{{run}}', description: 'payments trigger refund.failed' },
    'the loaded scenario is untouched',
  );
  // By the step's name or its action; a string stays a string even when it reads as a number.
  t.like(params(applyOverrides(scenario, ['refund:amount=5000']), 4), { amount: 5000, reason: 'requested_by_customer' });
  t.like(params(applyOverrides(scenario, ['refunds.create:reason=duplicate']), 4), { amount: 10006, reason: 'duplicate' });
  t.like(params(applyOverrides(scenario, ['merchant_order_id=12345']), 0), { merchant_order_id: '12345' });
  t.throws(() => applyOverrides(scenario, ['amount=12.5']), {
    instanceOf: UsageError,
    message: '--override amount is a whole number in this scenario, not "12.5".',
  });
  t.throws(() => applyOverrides(scenario, ['amount']), { instanceOf: UsageError });
  t.throws(() => applyOverrides(scenario, ['payout:amount=1']), {
    instanceOf: UsageError,
    message:
      'refund.failed has no step "payout"; its steps: payment_intent, payment_intents.create, attempts.create, simulate, wait, refund, refunds.create, payment_intents.retrieve.',
  });
  t.throws(() => applyOverrides(scenario, ['__proto__.polluted=1']), { instanceOf: UsageError });
  t.is(Reflect.get({}, 'polluted'), undefined);
});

test('config: XDG first, PAYMENTS_CONFIG_DIR over all; files 0600 in a 0700 dir; the prefix only', (t) => {
  t.is(configDir({ HOME: '/home/a' }), '/home/a/.config/payments');
  t.is(configDir({ HOME: '/home/a', XDG_CONFIG_HOME: '/x' }), '/x/payments');
  t.is(configDir({ HOME: '/home/a', XDG_CONFIG_HOME: '/x', PAYMENTS_CONFIG_DIR: '/p' }), '/p');
  const dir = join(mkdtempSync(join(tmpdir(), 'payments-cli-unit-')), 'payments');
  const store = new ConfigStore(dir);
  store.updateProfile('default', { api_key: 'sk_test_abcdefgh12345678', api_base: 'http://localhost:4242' });
  store.updateProfile('staging', { api_key: 'sk_test_zzz' });
  store.saveListenState('default', { cursor: 'evt_A' });
  t.is(store.profile('default').api_key, 'sk_test_abcdefgh12345678');
  t.is(store.profile('staging').api_key, 'sk_test_zzz');
  t.deepEqual(store.listenState('default'), { cursor: 'evt_A' });
  t.deepEqual(store.listenState('staging'), {});
  t.is(statSync(dir).mode & 0o777, 0o700);
  for (const file of readdirSync(dir)) t.is(statSync(join(dir, file)).mode & 0o777, 0o600, file);
  t.throws(() => store.profile('../etc'), { instanceOf: UsageError });
  t.is(keyPrefix('sk_test_abcdefgh12345678'), 'sk_test_abcdefgh…');
});

test('every bundled scenario loads and names itself after its file', (t) => {
  const files = readdirSync(FIXTURES_DIR).filter((file) => file.endsWith('.json'));
  t.true(files.length >= 9);
  for (const file of files) t.is(loadScenario(join(FIXTURES_DIR, file)).name, file.replace(/\.json$/, ''));
});

test('the CLI is built on the SDK only: no imports beyond @payments/sdk, node: built-ins and its own files', (t) => {
  const srcDir = join(__dirname, '..', '..', 'src');
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  t.true(files.length > 10);
  for (const file of files) {
    const text = readFileSync(join(srcDir, file), 'utf8');
    for (const [, specifier] of text.matchAll(/from '([^']+)'/g)) {
      t.true(specifier === '@payments/sdk' || specifier.startsWith('node:') || specifier.startsWith('.'), `${file} imports ${specifier}`);
    }
    // The API is reached through the SDK; fetch is only for POSTing to a developer's --forward-to receiver.
    if (file !== 'forward.ts') t.false(/\bfetch\(/.test(text), `${file} calls fetch`);
  }
});

test('the command model (command-line/) needs nothing but node: built-ins, so other programs use it without the SDK', (t) => {
  const dir = join(__dirname, '..', '..', 'src', 'command-line');
  const files = readdirSync(dir).filter((file) => file.endsWith('.ts'));
  t.true(files.length > 3);
  for (const file of files) {
    for (const [, specifier] of readFileSync(join(dir, file), 'utf8').matchAll(/from '([^']+)'/g)) {
      t.true(specifier.startsWith('node:') || /^\.\/[^/]+$/.test(specifier), `${file} imports ${specifier}`);
    }
  }
});

test('following events: new ones oldest first, a late-committed one below the cursor too, nothing twice', async (t) => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString().replace('.000', '');
  const event = (id: string, seconds: number): Event => ({
    id,
    type: 'payment_intent.succeeded',
    created: at(seconds),
    livemode: false,
    data: { id: 'pi_1', object: 'payment_intent', status: 'succeeded', merchant: 'mch_1', mode: 'test' },
  });
  async function* list(...events: Event[]): AsyncGenerator<Event> {
    yield* events;
  }
  const e1 = event('evt_A', 1);
  const e2 = event('evt_B', 2);
  const e3 = event('evt_C', 3);
  let state: FollowState = { cursor: 'evt_A', seen: await baseline(list(e1), 'evt_A') };
  t.deepEqual(state.seen, ['evt_A']);

  // Poll 1 sees C but not B: B's transaction has not committed yet.
  let pending = await pollEvents(list(e3, e1), state);
  t.deepEqual(
    pending.map((p) => [p.event.id, p.advancesCursor]),
    [['evt_C', true]],
  );
  for (const p of pending) state = handled(state, p);
  t.is(state.cursor, 'evt_C');

  // Poll 2: B committed, and sits below the cursor in the list. It is taken; the cursor stays.
  pending = await pollEvents(list(e3, e2, e1), state);
  t.deepEqual(
    pending.map((p) => [p.event.id, p.advancesCursor]),
    [['evt_B', false]],
  );
  for (const p of pending) state = handled(state, p);
  t.is(state.cursor, 'evt_C');

  // Poll 3: nothing new, nothing twice.
  t.deepEqual(await pollEvents(list(e3, e2, e1), state), []);

  // An event far older than the look-back window below the cursor is not taken (it is history).
  const old = event('evt_OLD', 1);
  const later = { ...e3, created: new Date(Date.parse(e3.created) + LOOKBACK_MS + 5000).toISOString() };
  t.deepEqual(await pollEvents(list(later, old), { cursor: 'evt_C', seen: ['evt_C'] }), []);
});
