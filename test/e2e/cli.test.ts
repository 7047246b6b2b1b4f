import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { Payments } from '@payments/sdk';
import { jsonAt, textAt } from '../fixtures';
import { cliEnvironment, createMerchant, runCli, type CliEnvironment } from './cli-process';
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
  t.is(noKey.stderr, 'Error: No API key for profile default: run payments login --api-key sk_test_…, or pass --api-key or PAYMENTS_API_KEY.\n');

  const down = await runCli(env, ['balance', '--api-base', 'http://127.0.0.1:9']);
  t.is(down.code, 8);
  t.regex(down.stderr, /^Error: Could not reach the API[^\n]*\(code connection_error\)\n$/);
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
  t.deepEqual(JSON.parse(got.stdout), await payments.refunds.retrieve(refundId));

  const rest = await runCli(env, ['refunds', 'create', '--payment-intent', intent.id, '--json']);
  t.is(rest.code, 0, rest.stderr);
  t.is(jsonAt(JSON.parse(rest.stdout), 'amount'), 13000);

  const table = await runCli(env, ['refunds', 'list', '--payment-intent', intent.id, '--limit', '1']);
  t.is(table.code, 0, table.stderr);
  const lines = table.stdout.split('\n');
  t.deepEqual(lines[0]?.split(/ {2,}/), ['ID', 'STATUS', 'PAYMENT_INTENT', 'AMOUNT', 'CURRENCY', 'REASON', 'CREATED']);
  t.deepEqual(lines[1]?.split(/ {2,}/).slice(2, 5), [intent.id, '13000', 'THB']);
  t.is(lines.length, 3, table.stdout);
  t.regex(table.stderr, /^More: add --starting-after re_[A-Z2-7]+\n$/);

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
  const commands = [...section.matchAll(/^ {2}([a-z-]+(?: [a-z-]+)?)  +[A-Z]/gm)].map((match) => match[1]);
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
