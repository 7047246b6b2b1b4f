import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'csv-parse/sync';
import { Payments } from '@payments/sdk';
import { jsonAt, listAt, objectAt, textAt } from '../fixtures';
import { cliEnvironment, createMerchant, runCli, startCli, type CliEnvironment } from './cli-process';
import { serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';

/*
 * The `payments` CLI as a child process against a started service: stdout, stderr and exit
 * codes asserted exactly. Serial: one service, light on a shared machine.
 */

let environment: ServiceEnvironment;
let service: RunningService;
let key: string;
let env: CliEnvironment;
let payments: Payments;

test.before(async () => {
  environment = await serviceEnvironment();
  service = await startService(environment.env);
  key = await createMerchant(environment.env, 'CLI Shop');
  env = cliEnvironment(service.baseUrl);
  payments = new Payments(key, { baseUrl: service.baseUrl });
});
test.after.always(async () => {
  await service?.stop();
  await environment?.cleanup();
});

test.serial('login checks the key, stores it in a 0600 file in a 0700 dir and never prints it', async (t) => {
  const bad = await runCli(env, ['login', '--api-key', 'sk_test_doesnotexist1234']);
  t.is(bad.code, 3);
  t.is(bad.stdout, '');
  t.regex(bad.stderr, /^Error: [^\n]+ \(code authentication_required, status 401, request req_\w+\)\n$/);
  t.false(bad.stderr.includes('doesnotexist'), 'the refused key is not echoed');

  const run = await runCli(env, ['login', '--api-key', key, '--json']);
  t.is(run.code, 0, run.stderr);
  const dir = env.PAYMENTS_CONFIG_DIR;
  const file = join(dir, 'config.json');
  t.deepEqual(JSON.parse(run.stdout), { profile: 'default', mode: 'test', key_prefix: `${key.slice(0, 16)}…`, api_base: service.baseUrl, config: file });
  t.is(run.stderr, `Logged in: profile default uses ${key.slice(0, 16)}… at ${service.baseUrl}.\n`);
  t.false(run.stdout.includes(key) || run.stderr.includes(key), 'the key is never printed');
  t.is(statSync(file).mode & 0o777, 0o600);
  t.is(statSync(dir).mode & 0o777, 0o700);
  t.is(jsonAt(JSON.parse(readFileSync(file, 'utf8')), 'profiles', 'default', 'api_key'), key);
});

test.serial('login reads the key from stdin (--stdin, or whenever stdin is piped); logout removes it; profiles list masks it', async (t) => {
  const own = cliEnvironment(service.baseUrl);
  const file = join(own.PAYMENTS_CONFIG_DIR, 'config.json');
  const storedKey = (profile: string) => jsonAt(JSON.parse(readFileSync(file, 'utf8')), 'profiles', profile, 'api_key');
  const never = (run: { stdout: string; stderr: string }) => t.false(run.stdout.includes(key) || run.stderr.includes(key), 'the key is never printed');

  const piped = await runCli(own, ['login', '--stdin', '--json'], `${key}\n`);
  t.is(piped.code, 0, piped.stderr);
  t.like(JSON.parse(piped.stdout), { profile: 'default', mode: 'test', key_prefix: `${key.slice(0, 16)}…` });
  t.is(storedKey('default'), key);
  never(piped);

  // Not a terminal and no --api-key: stdin is read without being asked for.
  const implicit = await runCli(own, ['login', '--profile', 'staging'], `  ${key}  \n`);
  t.is(implicit.code, 0, implicit.stderr);
  t.is(storedKey('staging'), key);
  never(implicit);

  // A refused key from stdin: checked against the API, not stored, not echoed.
  const refused = await runCli(own, ['login', '--stdin', '--profile', 'other'], 'sk_test_doesnotexist1234\n');
  t.is(refused.code, 3);
  t.false(refused.stderr.includes('doesnotexist'));
  t.is(storedKey('other'), undefined);
  const nothing = await runCli(own, ['login', '--stdin', '--profile', 'other'], '');
  t.is(nothing.code, 2);
  t.is(nothing.stderr, 'Error: No API key given: type it at the prompt, pipe it in (--stdin), or pass --api-key.\n');
  const both = await runCli(own, ['login', '--stdin', '--api-key', key], key);
  t.is(both.code, 2);
  t.is(both.stderr, 'Error: Pass the key either on stdin (--stdin) or with --api-key, not both.\n');
  never(both);

  const list = await runCli({ ...own, PAYMENTS_PROFILE: 'staging' }, ['profiles', 'list']);
  t.is(list.code, 0, list.stderr);
  t.deepEqual(
    list.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/ {2,}/)),
    [
      ['', 'PROFILE', 'MODE', 'KEY', 'API_BASE'],
      ['', 'default', 'test', `${key.slice(0, 16)}…`, service.baseUrl],
      ['*', 'staging', 'test', `${key.slice(0, 16)}…`, service.baseUrl],
    ],
  );
  never(list);

  const logout = await runCli(own, ['logout', '--json']);
  t.is(logout.code, 0, logout.stderr);
  t.deepEqual(JSON.parse(logout.stdout), { logged_out: [{ profile: 'default', key_prefix: `${key.slice(0, 16)}…` }] });
  t.is(logout.stderr, `Logged out: profile default no longer holds ${key.slice(0, 16)}….\n`);
  t.is(storedKey('default'), undefined);
  t.is(storedKey('staging'), key, 'other profiles keep theirs');
  never(logout);
  const after = await runCli(own, ['balance']);
  t.is(after.code, 3);
  t.is(after.stderr, 'Error: No API key for profile default: run payments login, or pass --api-key or PAYMENTS_API_KEY.\n');
  const again = await runCli(own, ['logout']);
  t.is(again.code, 0);
  t.is(again.stderr, 'No stored key to remove (profile default).\n');

  const listed = await runCli(own, ['profiles', 'list', '--json']);
  t.deepEqual(JSON.parse(listed.stdout), [
    { profile: 'default', active: true, mode: null, key_prefix: null, api_base: service.baseUrl },
    { profile: 'staging', active: false, mode: 'test', key_prefix: `${key.slice(0, 16)}…`, api_base: service.baseUrl },
  ]);
  const all = await runCli(own, ['logout', '--all']);
  t.is(all.code, 0);
  t.is(all.stderr, `Logged out: profile staging no longer holds ${key.slice(0, 16)}….\n`);
  t.false(readFileSync(file, 'utf8').includes('sk_'), 'no key left in the file');
});

test.serial('--json prints the API object; tables otherwise; data on stdout only', async (t) => {
  const created = await runCli(env, [
    'payment-intents',
    'create',
    '--amount',
    '12345',
    '--currency',
    'THB',
    '--merchant-order-id',
    'cli-order-1',
    '--metadata',
    'cart=42',
    '--json',
  ]);
  t.is(created.code, 0, created.stderr);
  t.is(created.stderr, '');
  const intent: unknown = JSON.parse(created.stdout);
  t.like(intent, { object: 'payment_intent', amount: 12345, currency: 'THB', merchant_order_id: 'cli-order-1', status: 'created', metadata: { cart: '42' } });
  t.regex(textAt(intent, 'checkout_url'), /\/c\//);
  const intentId = textAt(intent, 'id');

  const got = await runCli(env, ['payment-intents', 'get', intentId, '--json']);
  t.is(got.code, 0);
  t.is(got.stderr, '');
  t.deepEqual(JSON.parse(got.stdout), await payments.paymentIntents.retrieve(intentId));

  const table = await runCli(env, ['payment-intents', 'list', '--limit', '1']);
  t.is(table.code, 0);
  const lines = table.stdout.split('\n');
  t.is(lines.length, 3, table.stdout);
  t.is(lines[2], '');
  t.deepEqual(lines[0]?.split(/ {2,}/), ['ID', 'STATUS', 'AMOUNT', 'CURRENCY', 'ORDER', 'CREATED']);
  t.deepEqual(lines[1]?.split(/ {2,}/), [intentId, 'created', '12345', 'THB', 'cli-order-1', textAt(intent, 'created')]);
  t.is(table.stderr, '');

  const balance = await runCli(env, ['balance', '--json']);
  t.is(balance.code, 0);
  t.deepEqual(JSON.parse(balance.stdout), await payments.balance.retrieve());

  const quote = await runCli(env, ['fx', 'quote', '--from', 'USD', '--to', 'THB', '--amount', '1000', '--json']);
  t.is(quote.code, 0, quote.stderr);
  t.like(JSON.parse(quote.stdout), { indicative: true, from: 'USD', to: 'THB' });
});

test.serial('errors: one line on stderr and the documented exit code', async (t) => {
  const missing = await runCli(env, ['payment-intents', 'get', 'pi_doesnotexist']);
  t.is(missing.code, 5);
  t.is(missing.stdout, '');
  t.regex(missing.stderr, /^Error: [^\n]+ \(code resource_not_found, status 404, param id, request req_\w+\)\n$/);

  const usage = await runCli(env, ['payment-intents', 'create', '--currency', 'THB']);
  t.is(usage.code, 2);
  t.is(usage.stderr, 'Error: --amount is required.\n');

  const unknown = await runCli(env, ['payment-intents', 'create', '--amount', '1', '--currency', 'THB', '--colour', 'red']);
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /^Error: Unknown option '--colour'\. See payments payment-intents create --help\.\n$/);

  const unknownCommand = await runCli(env, ['payouts', 'create']);
  t.is(unknownCommand.code, 2);
  t.is(unknownCommand.stderr, 'Error: Unknown command "payouts"; run payments --help.\n');

  await runCli(env, ['payment-intents', 'create', '--amount', '100', '--currency', 'THB', '--merchant-order-id', 'cli-dup']);
  const taken = await runCli(env, ['payment-intents', 'create', '--amount', '100', '--currency', 'THB', '--merchant-order-id', 'cli-dup']);
  t.is(taken.code, 6);
  t.regex(taken.stderr, /^Error: [^\n]+ \(code merchant_order_id_taken, status 409, [^\n]*\)\n$/);

  const invalid = await runCli(env, ['payment-intents', 'create', '--amount', '100', '--currency', 'THB', '--return-url', 'http://localhost/x']);
  t.is(invalid.code, 4);
  t.regex(invalid.stderr, /^Error: [^\n]+ \(code invalid_return_url, status 400, [^\n]*\)\n$/);

  const noKey = await runCli(cliEnvironment(service.baseUrl), ['balance']);
  t.is(noKey.code, 3);
  t.is(noKey.stderr, 'Error: No API key for profile default: run payments login, or pass --api-key or PAYMENTS_API_KEY.\n');

  const down = await runCli(env, ['balance', '--api-base', 'http://127.0.0.1:9']);
  t.is(down.code, 8);
  t.regex(down.stderr, /^Error: Could not reach the API[^\n]*\(code connection_error\)\n$/);
});

test.serial('errors with --json: the error envelope as one JSON line on stderr, stdout empty, the same exit codes', async (t) => {
  const envelope = (run: { stdout: string; stderr: string }) => {
    t.is(run.stdout, '');
    t.true(run.stderr.endsWith('\n') && !run.stderr.trimEnd().includes('\n'), run.stderr);
    return objectAt(JSON.parse(run.stderr), 'error');
  };
  const missing = await runCli(env, ['payment-intents', 'get', 'pi_doesnotexist', '--json']);
  t.is(missing.code, 5);
  const notFound = envelope(missing);
  t.like(notFound, { code: 'resource_not_found', param: 'id' });
  t.regex(textAt(notFound, 'request_id'), /^req_\w+$/);
  t.deepEqual(Object.keys(notFound).sort(), ['code', 'message', 'param', 'request_id']);

  const usage = await runCli(env, ['payment-intents', 'create', '--currency', 'THB', '--json']);
  t.is(usage.code, 2);
  t.deepEqual(envelope(usage), { code: 'usage', message: '--amount is required.' });
  const unknownCommand = await runCli(env, ['payouts', 'create', '--json']);
  t.is(unknownCommand.code, 2);
  t.deepEqual(envelope(unknownCommand), { code: 'usage', message: 'Unknown command "payouts"; run payments --help.' });
  const noCommand = await runCli(env, ['--json']);
  t.is(noCommand.code, 2);
  t.deepEqual(envelope(noCommand), { code: 'usage', message: 'No command given; run payments --help.' });

  const noKey = await runCli(cliEnvironment(service.baseUrl), ['balance', '--json']);
  t.is(noKey.code, 3);
  t.like(envelope(noKey), { code: 'authentication_required' });
  const badKey = await runCli(env, ['balance', '--json', '--api-key', 'sk_test_doesnotexist1234']);
  t.is(badKey.code, 3);
  t.like(envelope(badKey), { code: 'authentication_required' });
  t.false(badKey.stderr.includes('doesnotexist'));

  const down = await runCli(env, ['balance', '--json', '--api-base', 'http://127.0.0.1:9']);
  t.is(down.code, 8);
  t.like(envelope(down), { code: 'connection_error' });

  const intent = await payments.paymentIntents.create({ amount: 5000, currency: 'THB', merchant_order_id: `cli-json-wait-${Date.now()}` });
  const timedOut = await runCli(env, ['wait', intent.id, '--status', 'succeeded', '--timeout', '300ms', '--json']);
  t.is(timedOut.code, 9);
  t.deepEqual(envelope(timedOut), { code: 'wait_failed', message: `Timed out after 300ms: ${intent.id} is created, not succeeded.` });
});

test.serial('--all follows has_more to the last page and prints one list', async (t) => {
  for (let i = 0; i < 3; i += 1) await payments.paymentIntents.create({ amount: 100 + i, currency: 'THB', merchant_order_id: `cli-all-${Date.now()}-${i}` });
  const everyIntent = await payments.paymentIntents.list({ limit: 100 }).autoPagingToArray({ limit: 10_000 });
  t.true(everyIntent.length > 3);

  const all = await runCli(env, ['payment-intents', 'list', '--limit', '2', '--all', '--json']);
  t.is(all.code, 0, all.stderr);
  t.deepEqual(JSON.parse(all.stdout), { object: 'list', data: everyIntent, has_more: false });

  const table = await runCli(env, ['payment-intents', 'list', '--limit', '2', '--all']);
  t.is(table.code, 0);
  t.is(table.stdout.trimEnd().split('\n').length, everyIntent.length + 1);
  t.is(table.stderr, '', 'no paging hint: there is no page left');

  const onePage = await runCli(env, ['payment-intents', 'list', '--limit', '2']);
  t.regex(onePage.stderr, /^More: add --starting-after pi_\w+ \(or --all\)\n$/);

  // A paid intent makes a few events; the worker may add more meanwhile, so: at least those there were before.
  const paid = await payments.paymentIntents.create({ amount: 100, currency: 'THB', merchant_order_id: `cli-all-paid-${Date.now()}` });
  await payments.paymentIntents.attempts.create(paid.id, { payment_method: 'promptpay' });
  await payments.testHelpers.paymentIntents.simulate(paid.id, { outcome: 'succeeded' });
  const eventsBefore = (await payments.events.list({ limit: 100 }).autoPagingToArray({ limit: 10_000 })).length;
  t.true(eventsBefore > 1);
  const events = await runCli(env, ['events', 'list', '--limit', '1', '--all', '--json']);
  t.is(jsonAt(JSON.parse(events.stdout), 'has_more'), false);
  t.true(listAt(JSON.parse(events.stdout), 'data').length >= eventsBefore);
});

test.serial('Ctrl-C during wait or trigger exits 130 (SIGTERM 143), saying where it stopped', async (t) => {
  const intent = await payments.paymentIntents.create({ amount: 5000, currency: 'THB', merchant_order_id: `cli-sigint-${Date.now()}` });
  const waiting = startCli(env, ['wait', intent.id, '--status', 'succeeded', '--timeout', '60s']);
  await new Promise((r) => setTimeout(r, 800));
  t.is(await waiting.stop('SIGINT'), 130);
  t.is(waiting.stderr(), `Error: Stopped while waiting: ${intent.id} is created.\n`);
  t.is(waiting.stdout(), '');

  const terminated = startCli(env, ['wait', intent.id, '--status', 'succeeded', '--timeout', '60s', '--json']);
  await new Promise((r) => setTimeout(r, 800));
  t.is(await terminated.stop('SIGTERM'), 143);
  t.deepEqual(JSON.parse(terminated.stderr()), { error: { code: 'interrupted', message: `Stopped while waiting: ${intent.id} is created.` } });

  // A scenario that would wait a minute for a payment nobody makes.
  const flow = join(env.PAYMENTS_CONFIG_DIR, '..', 'never-paid.json');
  writeFileSync(
    flow,
    JSON.stringify({
      name: 'never.paid',
      steps: [
        { action: 'payment_intents.create', name: 'payment_intent', params: { amount: 5000, currency: 'THB', merchant_order_id: 'never-{{run}}' } },
        { action: 'wait', payment_intent: '{{payment_intent.id}}', status: 'succeeded', timeout: '60s' },
      ],
    }),
  );
  const trigger = startCli(env, ['trigger', '--file', flow]);
  await trigger.waitFor(() => trigger.stderr().includes('1/2 payment_intents.create'), 'the first step');
  t.is(await trigger.stop('SIGINT'), 130);
  t.regex(trigger.stderr(), /\nError: Stopped while waiting: pi_\w+ is created\.\n$/);
});

test.serial("trigger --override sets a field of the scenario's request body, typed", async (t) => {
  const run = await runCli(env, ['trigger', 'payment.succeeded', '--override', 'amount=4242', '--override', 'payment_intent:metadata.source=cli', '--json']);
  t.is(run.code, 0, run.stderr);
  const intent = await payments.paymentIntents.retrieve(textAt(JSON.parse(run.stdout), 'objects', 'payment_intent', 'id'));
  t.like(intent, { amount: 4242, currency: 'THB', metadata: { source: 'cli' } });
  t.true(['succeeded', 'channel_settled'].includes(intent.status));

  const refund = await runCli(env, ['trigger', 'refund.succeeded', '--override', 'refund:amount=1006']);
  t.is(refund.code, 9, 'a refund amount ending in 06 is declined in test mode, so the wait for succeeded fails');
  t.regex(refund.stderr, /\nError: re_\w+ is failed and can no longer become succeeded\.\n$/);

  const typo = await runCli(env, ['trigger', 'payment.succeeded', '--override', 'amount=12.50']);
  t.is(typo.code, 2);
  t.is(typo.stderr, 'Error: --override amount is a whole number in this scenario, not "12.50".\n');
});

test.serial('trigger scenarios end in the expected states', async (t) => {
  // settlement.paid first: a lost dispute later takes money from the available balance.
  const settled = await runCli(env, ['trigger', 'settlement.paid', '--json']);
  t.is(settled.code, 0, settled.stderr);
  const settlementId = textAt(JSON.parse(settled.stdout), 'objects', 'settlement', 'id');
  t.like(await payments.settlements.retrieve(settlementId), { status: 'paid', payments: 1 });
  t.regex(settled.stderr, /^Running settlement\.paid: [^\n]+\n( {2}\d\/6 [^\n]+\n){6}$/);

  const expectations: Array<[string, string, (objects: unknown) => Promise<unknown>]> = [
    [
      'payment.succeeded',
      'succeeded',
      async (o) => t.true(['succeeded', 'channel_settled'].includes((await payments.paymentIntents.retrieve(textAt(o, 'payment_intent', 'id'))).status)),
    ],
    ['payment.failed', 'failed', async (o) => t.is((await payments.paymentIntents.retrieve(textAt(o, 'payment_intent', 'id'))).status, 'failed')],
    ['payment.canceled', 'canceled', async (o) => t.is((await payments.paymentIntents.retrieve(textAt(o, 'payment_intent', 'id'))).status, 'canceled')],
    ['payment.expired', 'expired', async (o) => t.is((await payments.paymentIntents.retrieve(textAt(o, 'payment_intent', 'id'))).status, 'expired')],
    [
      'refund.succeeded',
      'succeeded',
      async (o) => {
        t.like(await payments.refunds.retrieve(textAt(o, 'refund', 'id')), { status: 'succeeded', amount: 10000, reason: 'requested_by_customer' });
        t.is((await payments.paymentIntents.retrieve(textAt(o, 'payment_intent', 'id'))).amount_refunded, 10000);
      },
    ],
    [
      'refund.failed',
      'failed',
      async (o) => {
        t.like(await payments.refunds.retrieve(textAt(o, 'refund', 'id')), { status: 'failed', failure_code: 'channel_declined' });
        t.is((await payments.paymentIntents.retrieve(textAt(o, 'payment_intent', 'id'))).amount_refunded, 0);
      },
    ],
    ['dispute.lost', 'lost', async (o) => t.is((await payments.disputes.retrieve(textAt(o, 'dispute', 'id'))).status, 'lost')],
    [
      'dispute.won',
      'won',
      async (o) => t.like(await payments.disputes.retrieve(textAt(o, 'dispute', 'id')), { status: 'won', evidence: { note: 'Delivered and signed for' } }),
    ],
  ];
  for (const [scenario, , check] of expectations) {
    const run = await runCli(env, ['trigger', scenario, '--json']);
    t.is(run.code, 0, `${scenario}: ${run.stderr}`);
    const output: unknown = JSON.parse(run.stdout);
    t.is(jsonAt(output, 'scenario'), scenario);
    await check(jsonAt(output, 'objects'));
  }

  const unknown = await runCli(env, ['trigger', 'payment.chargeback']);
  t.is(unknown.code, 2);
  t.is(unknown.stderr, 'Error: Unknown scenario "payment.chargeback"; payments trigger --list shows them.\n');
});

test.serial('refunds: create with its flags, get and list; a missing flag is usage, too much is a conflict', async (t) => {
  const intent = await payments.paymentIntents.create({ amount: 20000, currency: 'THB', merchant_order_id: `cli-refund-${Date.now()}` });
  await payments.paymentIntents.attempts.create(intent.id, { payment_method: 'promptpay' });
  await payments.testHelpers.paymentIntents.simulate(intent.id, { outcome: 'succeeded' });

  const created = await runCli(env, [
    'refunds',
    'create',
    '--payment-intent',
    intent.id,
    '--amount',
    '7000',
    '--reason',
    'duplicate',
    '--metadata',
    'ticket=T-9',
    '--idempotency-key',
    `cli-refund-${intent.id}`,
    '--json',
  ]);
  t.is(created.code, 0, created.stderr);
  t.is(created.stderr, '');
  const refund: unknown = JSON.parse(created.stdout);
  t.like(refund, { object: 'refund', payment_intent: intent.id, amount: 7000, currency: 'THB', reason: 'duplicate', metadata: { ticket: 'T-9' } });
  const refundId = textAt(refund, 'id');

  const got = await runCli(env, ['refunds', 'get', refundId, '--json']);
  t.is(got.code, 0, got.stderr);
  // The sandbox reports the refund shortly after it is placed, so it may succeed between the two
  // reads: the CLI's answer is the API's object, compared on all but that progress.
  const withoutProgress = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value, (key, field: unknown) => (key === 'status' || key === 'succeeded_at' ? undefined : field)));
  const viaCli: unknown = JSON.parse(got.stdout);
  t.deepEqual(withoutProgress(viaCli), withoutProgress(await payments.refunds.retrieve(refundId)));
  t.regex(textAt(viaCli, 'status'), /^(pending|succeeded)$/);

  const rest = await runCli(env, ['refunds', 'create', '--payment-intent', intent.id, '--json']);
  t.is(rest.code, 0, rest.stderr);
  t.is(jsonAt(JSON.parse(rest.stdout), 'amount'), 13000);

  const table = await runCli(env, ['refunds', 'list', '--payment-intent', intent.id, '--limit', '1']);
  t.is(table.code, 0, table.stderr);
  const lines = table.stdout.split('\n');
  t.deepEqual(lines[0]?.split(/ {2,}/), ['ID', 'STATUS', 'PAYMENT_INTENT', 'AMOUNT', 'CURRENCY', 'REASON', 'CREATED']);
  t.deepEqual(lines[1]?.split(/ {2,}/).slice(2, 5), [intent.id, '13000', 'THB']);
  t.is(lines.length, 3, table.stdout);
  t.regex(table.stderr, /^More: add --starting-after re_[A-Z2-7]+ \(or --all\)\n$/);

  const missing = await runCli(env, ['refunds', 'create', '--amount', '100']);
  t.is(missing.code, 2);
  t.is(missing.stderr, 'Error: --payment-intent is required.\n');
  const badReason = await runCli(env, ['refunds', 'create', '--payment-intent', intent.id, '--reason', 'changed_mind']);
  t.is(badReason.code, 2);
  t.is(badReason.stderr, 'Error: --reason must be one of requested_by_customer, duplicate, fraudulent, not "changed_mind".\n');
  const tooMuch = await runCli(env, ['refunds', 'create', '--payment-intent', intent.id, '--amount', '1']);
  t.is(tooMuch.code, 6);
  t.regex(tooMuch.stderr, /^Error: [^\n]+ \(code refund_exceeds_remaining, status 409, [^\n]*\)\n$/);
  const badId = await runCli(env, ['refunds', 'get', 'pi_123']);
  t.is(badId.code, 2);
  t.is(badId.stderr, 'Error: <refund> should look like re_[A-Z2-7]+, not "pi_123".\n');
});

test.serial(
  'balance-transactions: list with filters as a table or JSON, and get one; a bad type or id is a usage error, a bad date the API’s 400',
  async (t) => {
    const intent = await payments.paymentIntents.create({ amount: 12_000, currency: 'THB', merchant_order_id: `cli-lines-${Date.now()}` });
    await payments.paymentIntents.attempts.create(intent.id, { payment_method: 'promptpay' });
    const paid = await payments.testHelpers.paymentIntents.simulate(intent.id, { outcome: 'succeeded' });
    const net = paid.net?.amount ?? 0;
    // Its own environment with the key: this test does not rely on the login of an earlier one.
    const own = cliEnvironment(service.baseUrl, { PAYMENTS_API_KEY: key });

    const listed = await runCli(own, [
      'balance-transactions',
      'list',
      '--payment-intent',
      intent.id,
      '--type',
      'payment',
      '--created-gte',
      '2020-01-01',
      '--json',
    ]);
    t.is(listed.code, 0, listed.stderr);
    const page: unknown = JSON.parse(listed.stdout);
    t.is(listAt(page, 'data').length, 1);
    const line = objectAt(listAt(page, 'data')[0]);
    t.like(line, { object: 'balance_transaction', type: 'payment', amount: 12_000, net, currency: 'THB', source: intent.id, moves: { pending: net } });
    // `available_on` appears once the channel settles the payment, which the worker may do between two reads.
    const stable = (value: unknown): unknown => ({ ...objectAt(value), available_on: undefined });
    t.deepEqual(stable(line), stable(JSON.parse(JSON.stringify(await payments.balanceTransactions.retrieve(textAt(line, 'id'))))));

    const table = await runCli(own, ['balance-transactions', 'list', '--payment-intent', intent.id, '--currency', 'thb']);
    t.is(table.code, 0, table.stderr);
    const rows = table.stdout.split('\n');
    t.deepEqual(rows[0]?.split(/ {2,}/), ['ID', 'TYPE', 'AMOUNT', 'FEE', 'NET', 'CURRENCY', 'SOURCE', 'AVAILABLE_ON', 'SETTLEMENT', 'CREATED']);
    t.deepEqual(rows[1]?.split(/ {2,}/).slice(0, 7), [textAt(line, 'id'), 'payment', '12000', String(12_000 - net), String(net), 'THB', intent.id]);

    const got = await runCli(own, ['balance-transactions', 'get', textAt(line, 'id'), '--json']);
    t.is(got.code, 0, got.stderr);
    t.deepEqual(stable(JSON.parse(got.stdout)), stable(line));
    const none = await runCli(own, ['balance-transactions', 'list', '--payment-intent', intent.id, '--created-lte', '2020-01-01']);
    t.is(none.stdout, '(none)\n');

    const badType = await runCli(own, ['balance-transactions', 'list', '--type', 'fee']);
    t.is(badType.code, 2);
    t.regex(badType.stderr, /^Error: --type must be one of payment, release, refund, /);
    const badId = await runCli(own, ['balance-transactions', 'get', 'pi_123']);
    t.is(badId.code, 2);
    t.is(badId.stderr, 'Error: <balance_transaction> should look like txn_[1-9][0-9]*, not "pi_123".\n');
    const badDate = await runCli(own, ['balance-transactions', 'list', '--available-on-lte', '2026-02-30']);
    t.is(badDate.code, 4, 'the API refuses the date: 400 invalid_parameter');
    t.regex(badDate.stderr, /available_on\[lte\]/);
  },
);

/** Polls until `check` holds (the service's worker ticks every 200 ms here). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test.serial(
  'export: the CSV of a settlement’s balance transactions on stdout adds up to its amount; filters reach the service; a bad date is its 400',
  async (t) => {
    // A merchant of its own on the manual schedule, paid and paid out.
    const shopKey = await createMerchant(environment.env, 'CLI Export Shop');
    const own = cliEnvironment(service.baseUrl, { PAYMENTS_API_KEY: shopKey });
    const shop = new Payments(shopKey, { baseUrl: service.baseUrl });
    const intent = await shop.paymentIntents.create({ amount: 125_050, currency: 'THB', merchant_order_id: `=cli-export-${Date.now()}` });
    await shop.paymentIntents.attempts.create(intent.id, { payment_method: 'promptpay' });
    await shop.testHelpers.paymentIntents.simulate(intent.id, { outcome: 'succeeded' });
    await eventually(async () => (await shop.paymentIntents.retrieve(intent.id)).status === 'channel_settled', 'channel_settled');
    await shop.testHelpers.paymentIntents.advance(intent.id, { clock: 'release' });
    await eventually(async () => (await shop.balance.retrieve()).available.some((money) => Number(money.amount) > 0), 'available funds');
    const settlement = await shop.settlements.create();

    const run = await runCli(own, ['export', 'balance_transactions', '--settlement', settlement.id]);
    t.is(run.code, 0, run.stderr);
    t.is(run.stderr, '');
    const rows: Record<string, string>[] = parse(run.stdout, { columns: true });
    t.true(run.stdout.startsWith('id,created,type,source,payment_intent,settlement,currency,amount,amount_minor,'), 'the header row, no byte order mark');
    t.deepEqual(rows.map((row) => row.type).sort(), ['release', 'settlement']);
    t.is(
      rows.filter((row) => row.type !== 'settlement').reduce((sum, row) => sum + BigInt((row.moves_available ?? '').replace('.', '')), 0n),
      BigInt(settlement.amount.amount),
    );
    t.like(
      rows.find((row) => row.type === 'settlement'),
      { amount_minor: String(-settlement.amount.amount) },
    );

    const intents = await runCli(own, ['export', 'payment_intents', '--status', 'channel_settled', '--created-gte', '2020-01-01']);
    t.is(intents.code, 0, intents.stderr);
    const intentRows: Record<string, string>[] = parse(intents.stdout, { columns: true });
    t.deepEqual(
      intentRows.map((row) => [row.id, row.amount, row.merchant_order_id, row.settlement]),
      [[intent.id, '1250.50', `'${intent.merchant_order_id}`, settlement.id]],
      'the order id that starts with = is written after a single quote',
    );
    const settlements = await runCli(own, ['export', 'settlements', '--json']);
    t.is(settlements.code, 0, settlements.stderr);
    const paidOut = rows.find((row) => row.type === 'settlement')?.amount.replace(/^-/, '');
    const settlementRows: Record<string, string>[] = parse(settlements.stdout, { columns: true });
    t.like(settlementRows[0], { id: settlement.id, status: 'paid', amount: paidOut });

    const badType = await runCli(own, ['export', 'balance_transactions', '--type', 'fee']);
    t.is(badType.code, 2);
    t.is(badType.stdout, '');
    const badDate = await runCli(own, ['export', 'balance_transactions', '--created-lte', '2026-02-30']);
    t.is(badDate.code, 4, 'the API refuses the date: 400 invalid_parameter');
    t.is(badDate.stdout, '');
    t.regex(badDate.stderr, /created\[lte\]/);
  },
);

test.serial('wait returns the intent once it gets there, and times out with exit 9', async (t) => {
  const intent = await payments.paymentIntents.create({ amount: 5000, currency: 'THB', merchant_order_id: `cli-wait-${Date.now()}` });
  const timedOut = await runCli(env, ['wait', intent.id, '--status', 'succeeded', '--timeout', '1s']);
  t.is(timedOut.code, 9);
  t.is(timedOut.stdout, '');
  // stderr is not a terminal here, so no progress line precedes the error.
  t.is(timedOut.stderr, `Error: Timed out after 1s: ${intent.id} is created, not succeeded.\n`);

  await payments.paymentIntents.attempts.create(intent.id, { payment_method: 'promptpay' });
  const waiting = runCli(env, ['wait', intent.id, '--status', 'succeeded', '--timeout', '30s', '--json']);
  await runCli(env, ['simulate', intent.id, '--outcome', 'succeeded']);
  const done = await waiting;
  t.is(done.code, 0, done.stderr);
  t.is(done.stderr, '');
  t.true(['succeeded', 'channel_settled'].includes(textAt(JSON.parse(done.stdout), 'status')));

  const canceled = await payments.paymentIntents.create({ amount: 5000, currency: 'THB', merchant_order_id: `cli-wait-c-${Date.now()}` });
  await runCli(env, ['payment-intents', 'cancel', canceled.id]);
  const never = await runCli(env, ['wait', canceled.id, '--status', 'succeeded']);
  t.is(never.code, 9);
  t.is(never.stderr, `Error: ${canceled.id} is canceled and can no longer become succeeded.\n`);
});

test.serial('every command has --help with an example', async (t) => {
  const overview = await runCli(env, ['--help']);
  t.is(overview.code, 0);
  const section = overview.stdout.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
  const commands = [...section.matchAll(/^ {2}([a-z-]+(?: [a-z_-]+)?)  +[A-Z]/gm)].map((match) => match[1]);
  t.is(commands.length, section.split('\n').length);
  t.true(commands.length >= 23, commands.join(','));
  for (const command of commands) {
    const help = await runCli(env, [...command.split(' '), '--help']);
    t.is(help.code, 0, command);
    t.is(help.stderr, '');
    t.true(help.stdout.startsWith(`payments ${command}: `), command);
    t.regex(help.stdout, new RegExp(`\\nExamples?:\\n  payments ${command}`), command);
  }
});
