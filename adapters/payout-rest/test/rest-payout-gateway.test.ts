import nock from 'nock';
import { createHmac } from 'node:crypto';
import { CoreError, type PayoutRequest } from '@payments/core';
import { nockOnlySerialTests } from '@payments/node-runtime/dist/test/helpers/nock-only';
import { createRestPayoutGateway, RestPayoutGateway, signPayoutRequest, type RestPayoutGatewayOptions } from '../src';

const URL = 'https://payouts.provider.test';
const SECRET = 'pos_live_secret_0123456789abcdef';
const ACCOUNT = '1234567890';
const NOW = new Date('2026-09-01T10:00:00Z');
const T = Math.floor(NOW.getTime() / 1000);
/** A provider's message that must never reach our errors or logs. */
const PROVIDER_DETAIL = 'TRACE-4412 ledger=primary acct=1234567890';

const test = nockOnlySerialTests();

interface LogLine {
  readonly details: Record<string, unknown>;
  readonly message: string;
}

function gateway(logs: LogLine[] = [], options: Partial<RestPayoutGatewayOptions> = {}): RestPayoutGateway {
  return new RestPayoutGateway({
    baseUrl: `${URL}/`,
    secret: SECRET,
    timeoutMs: 200,
    retries: 2,
    retryBaseDelayMs: 5,
    now: () => NOW,
    logger: { warn: (details, message) => logs.push({ details, message }) },
    ...options,
  });
}

const payout: PayoutRequest = {
  mode: 'live',
  reference: 'st_ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  amount: { amount: 123_456, currency: 'THB' },
  destination: { accountHolder: 'Siam Coffee Co.', bankCode: 'KBANK', accountNumber: ACCOUNT },
};

const PAYOUT_BODY = {
  reference: payout.reference,
  amount: 123_456,
  currency: 'THB',
  destination: { account_holder: 'Siam Coffee Co.', bank_code: 'KBANK', account_number: ACCOUNT },
};

function expectedSignature(method: string, path: string, body: string): string {
  const v1 = createHmac('sha256', SECRET).update(`${T}.${method}.${path}.${body}`).digest('hex');
  return `t=${T},v1=${v1}`;
}

function neverLeaks(t: { false: (value: boolean, message?: string) => void }, logs: LogLine[], error?: unknown): void {
  const text = JSON.stringify(logs) + (error instanceof Error ? error.message : '');
  t.false(text.includes(ACCOUNT), 'no account number');
  t.false(text.includes('TRACE-4412'), "no provider's text");
  t.false(text.includes(SECRET), 'no secret');
}

test('live mode only; absent configuration makes no gateway', (t) => {
  const g = gateway();
  t.true(g.supports('live'));
  t.false(g.supports('test'));
  t.is(createRestPayoutGateway(undefined), undefined);
  t.true(createRestPayoutGateway({ baseUrl: URL, secret: SECRET }) instanceof RestPayoutGateway);
});

test('verifying an account: a signed POST of the details; verified or rejected with its reason code', async (t) => {
  const body = JSON.stringify({ account_holder: 'Siam Coffee Co.', bank_code: 'KBANK', account_number: ACCOUNT });
  nock(URL)
    .post('/v1/account_verifications', body)
    .matchHeader('payout-signature', expectedSignature('POST', '/v1/account_verifications', body))
    .matchHeader('content-type', 'application/json')
    .reply(200, { status: 'verified' })
    .post('/v1/account_verifications')
    .reply(200, { status: 'rejected', reason: 'account_not_found' })
    .post('/v1/account_verifications')
    .reply(200, { status: 'rejected', reason: PROVIDER_DETAIL });
  const account = payout.destination;
  t.deepEqual(await gateway().verifyDestination('live', account), { status: 'verified' });
  t.deepEqual(await gateway().verifyDestination('live', account), { status: 'rejected', reason: 'account_not_found' });
  t.deepEqual(await gateway().verifyDestination('live', account), { status: 'rejected' }, 'free text is not kept');
  t.true(nock.isDone());
});

test('the signature helper signs time, method, path and body', (t) => {
  t.is(signPayoutRequest(SECRET, 'get', '/v1/payouts/st_A', '', T), expectedSignature('GET', '/v1/payouts/st_A', ''));
});

test('a payout is created with the settlement id as reference and answered paid, processing or failed', async (t) => {
  const raw = JSON.stringify(PAYOUT_BODY);
  nock(URL)
    .post('/v1/payouts', raw)
    .matchHeader('payout-signature', expectedSignature('POST', '/v1/payouts', raw))
    .reply(201, { id: 'po_1', ...PAYOUT_BODY, destination: undefined, status: 'paid' })
    .post('/v1/payouts', raw)
    .reply(200, { id: 'po_1', reference: payout.reference, amount: 123_456, currency: 'THB', status: 'processing' })
    .post('/v1/payouts', raw)
    .reply(200, { id: 'po_1', reference: payout.reference, amount: 123_456, currency: 'THB', status: 'failed', failure_code: 'account_closed' });
  t.deepEqual(await gateway().sendPayout(payout), { status: 'paid' });
  t.deepEqual(await gateway().sendPayout(payout), { status: 'processing' });
  t.deepEqual(await gateway().sendPayout(payout), { status: 'failed', failureReason: 'account_closed' });
});

test('a payout carries the trace headers tracing gives, still signed; none without', async (t) => {
  const raw = JSON.stringify(PAYOUT_BODY);
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  nock(URL)
    .post('/v1/payouts', raw)
    .matchHeader('traceparent', traceparent)
    .matchHeader('payout-signature', expectedSignature('POST', '/v1/payouts', raw))
    .reply(201, { id: 'po_1', reference: payout.reference, amount: 123_456, currency: 'THB', status: 'paid' });
  t.deepEqual(await gateway([], { traceHeaders: () => ({ traceparent }) }).sendPayout(payout), { status: 'paid' });
  nock(URL, { badheaders: ['traceparent'] })
    .post('/v1/payouts', raw)
    .reply(201, { id: 'po_1', reference: payout.reference, amount: 123_456, currency: 'THB', status: 'paid' });
  t.deepEqual(await gateway().sendPayout(payout), { status: 'paid' });
});

test('a payout refused outright (422) is failed with the provider code', async (t) => {
  nock(URL)
    .post('/v1/payouts')
    .reply(422, { error: { code: 'currency_not_supported', message: PROVIDER_DETAIL } });
  const logs: LogLine[] = [];
  t.deepEqual(await gateway(logs).sendPayout(payout), { status: 'failed', failureReason: 'currency_not_supported' });
  neverLeaks(t, logs);
});

test('5xx and transport failures are retried with the same reference; then unavailable', async (t) => {
  nock(URL)
    .post('/v1/payouts')
    .reply(503, 'busy')
    .post('/v1/payouts')
    .replyWithError('socket hang up')
    .post('/v1/payouts')
    .reply(201, { reference: payout.reference, amount: 123_456, currency: 'THB', status: 'paid' });
  const logs: LogLine[] = [];
  t.deepEqual(await gateway(logs).sendPayout(payout), { status: 'paid' });
  t.is(logs.filter((line) => line.message === 'payout provider call retried').length, 2);

  nock(URL)
    .post('/v1/payouts')
    .times(3)
    .reply(500, { error: { code: 'internal', message: PROVIDER_DETAIL } });
  const error = await t.throwsAsync(() => gateway(logs).sendPayout(payout));
  t.true(error instanceof CoreError && error.category === 'unavailable');
  neverLeaks(t, logs, error);

  nock(URL).post('/v1/payouts').delay(500).times(3).reply(201, {});
  const slow = await t.throwsAsync(() => gateway().sendPayout(payout));
  t.true(slow instanceof CoreError && slow.category === 'unavailable');
});

test('an answer about another payout, another amount or with a malformed status is no answer', async (t) => {
  const logs: LogLine[] = [];
  for (const answer of [
    { reference: 'st_OTHER', amount: 123_456, currency: 'THB', status: 'paid' },
    { reference: payout.reference, amount: 1, currency: 'THB', status: 'paid' },
    { reference: payout.reference, amount: '123456', currency: 'THB', status: 'paid' },
    { reference: payout.reference, amount: 123_456, currency: 'USD', status: 'paid' },
    { reference: payout.reference, amount: 123_456, currency: 'THB', status: 'done' },
  ]) {
    nock(URL).post('/v1/payouts').reply(200, answer);
    const error = await t.throwsAsync(() => gateway(logs).sendPayout(payout));
    t.true(error instanceof CoreError && error.category === 'unavailable', JSON.stringify(answer));
  }
  nock(URL).post('/v1/payouts').reply(200, 'not json');
  await t.throwsAsync(() => gateway(logs).sendPayout(payout));
  neverLeaks(t, logs);
});

test('querying a payout by reference: its state, or undefined when the provider has none', async (t) => {
  const path = `/v1/payouts/${payout.reference}`;
  nock(URL)
    .get(path)
    .matchHeader('payout-signature', expectedSignature('GET', path, ''))
    .reply(200, { reference: payout.reference, amount: 123_456, currency: 'THB', status: 'paid' })
    .get(path)
    .reply(404, { error: { code: 'payout_not_found', message: 'No payout.' } })
    .get(path)
    .reply(404, '<html>not found</html>');
  t.deepEqual(await gateway().queryPayout('live', payout.reference), { status: 'paid' });
  t.is(await gateway().queryPayout('live', payout.reference), undefined);
  const error = await t.throwsAsync(() => gateway().queryPayout('live', payout.reference));
  t.true(error instanceof CoreError && error.category === 'unavailable', 'a 404 from something else is not a missing payout');
});

test('test mode is never sent to the live provider', async (t) => {
  const error = await t.throwsAsync(() => gateway().sendPayout({ ...payout, mode: 'test' }));
  t.true(error instanceof CoreError && error.code === 'payout_mode_unsupported');
  await t.throwsAsync(() => gateway().verifyDestination('test', payout.destination));
  await t.throwsAsync(() => gateway().queryPayout('test', payout.reference));
});
