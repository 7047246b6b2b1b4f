import { createHmac } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { CoreError } from '@payments/core';
import { RestPaymentChannel, signRestCallback } from '../src';

const TEST_SECRET = 'cbs_test_secret_0123456789';
const LIVE_SECRET = 'cbs_live_secret_0123456789';
const NOW = new Date('2030-01-31T10:00:00.000Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);

const channel = new RestPaymentChannel({
  test: { baseUrl: 'https://sandbox.channel.test', apiKey: 'ck_test', callbackSecret: TEST_SECRET },
  live: { baseUrl: 'https://api.channel.test', apiKey: 'ck_live', callbackSecret: LIVE_SECRET },
  clock: { now: () => NOW },
});

const BODY = JSON.stringify({ id: 'ord_9f2c1d', reference: 'att_ABCDEF234567', status: 'paid', amount: 10050, currency: 'THB' });

function refused(t: ExecutionContext, run: () => unknown, code: 'invalid_signature' | 'invalid_callback'): void {
  const error = t.throws(run, { instanceOf: CoreError });
  t.is(error?.code, code);
  t.is(error?.category, code === 'invalid_signature' ? 'authentication' : 'validation');
}

test('verifyCallback: a correctly signed callback is parsed into the port shape', (t) => {
  const header = signRestCallback(TEST_SECRET, BODY, NOW_S);
  t.deepEqual(channel.verifyCallback('test', { 'channel-signature': header }, BODY), {
    kind: 'order',
    channelOrderId: 'ord_9f2c1d',
    reference: 'att_ABCDEF234567',
    reportedStatus: 'paid',
  });
});

test('verifyCallback: the signature is the hex HMAC-SHA256 of "t.body" (the documented recipe), the header name is case-insensitive', (t) => {
  const hex = createHmac('sha256', LIVE_SECRET).update(`${NOW_S}.${BODY}`).digest('hex');
  const callback = channel.verifyCallback('live', { 'Channel-Signature': `t=${NOW_S},v1=${hex}` }, BODY);
  t.like(callback, { reportedStatus: 'paid' });
});

test('verifyCallback: during a rotation one valid v1 among several suffices; unknown schemes are ignored', (t) => {
  const valid = signRestCallback(TEST_SECRET, BODY, NOW_S).split('v1=')[1];
  const header = `t=${NOW_S},v0=abc,v1=${'0'.repeat(64)},v1=${valid}`;
  t.like(channel.verifyCallback('test', { 'channel-signature': header }, BODY), { channelOrderId: 'ord_9f2c1d' });
});

test('verifyCallback: timestamps up to 300 s away either way are accepted', (t) => {
  for (const t0 of [NOW_S - 300, NOW_S + 300]) {
    t.notThrows(() => channel.verifyCallback('test', { 'channel-signature': signRestCallback(TEST_SECRET, BODY, t0) }, BODY));
  }
});

const BAD_SIGNATURES: ReadonlyArray<readonly [string, Record<string, string | undefined>, string]> = [
  ['no header', {}, BODY],
  ['an empty header', { 'channel-signature': '' }, BODY],
  ["the other mode's secret", { 'channel-signature': signRestCallback(LIVE_SECRET, BODY, NOW_S) }, BODY],
  ['a wrong secret', { 'channel-signature': signRestCallback('not-the-secret', BODY, NOW_S) }, BODY],
  ['a stale timestamp (301 s old)', { 'channel-signature': signRestCallback(TEST_SECRET, BODY, NOW_S - 301) }, BODY],
  ['a timestamp from the future (301 s ahead)', { 'channel-signature': signRestCallback(TEST_SECRET, BODY, NOW_S + 301) }, BODY],
  ['a changed body', { 'channel-signature': signRestCallback(TEST_SECRET, BODY, NOW_S) }, BODY.replace('10050', '99999')],
  ["a truncated body under the full body's signature", { 'channel-signature': signRestCallback(TEST_SECRET, BODY, NOW_S) }, BODY.slice(0, 30)],
  [
    'a replayed signature with a moved timestamp',
    { 'channel-signature': signRestCallback(TEST_SECRET, BODY, NOW_S).replace(`t=${NOW_S}`, `t=${NOW_S + 1}`) },
    BODY,
  ],
  ['no timestamp', { 'channel-signature': `v1=${signRestCallback(TEST_SECRET, BODY, NOW_S).split('v1=')[1]}` }, BODY],
  ['two timestamps', { 'channel-signature': `t=${NOW_S},${signRestCallback(TEST_SECRET, BODY, NOW_S)}` }, BODY],
  ['no v1', { 'channel-signature': `t=${NOW_S}` }, BODY],
  [
    'an upper-case hex signature',
    { 'channel-signature': signRestCallback(TEST_SECRET, BODY, NOW_S).toUpperCase().replace('T=', 't=').replace('V1=', 'v1=') },
    BODY,
  ],
  ['a short signature', { 'channel-signature': signRestCallback(TEST_SECRET, BODY, NOW_S).slice(0, -2) }, BODY],
  ['a non-numeric timestamp', { 'channel-signature': `t=now,v1=${'a'.repeat(64)}` }, BODY],
  ['a huge header', { 'channel-signature': `t=${NOW_S},${'v1=x,'.repeat(1000)}` }, BODY],
];

for (const [what, headers, body] of BAD_SIGNATURES) {
  test(`verifyCallback: ${what} is refused with invalid_signature`, (t) => {
    refused(t, () => channel.verifyCallback('test', headers, body), 'invalid_signature');
  });
}

test('verifyCallback: a mode without a configured secret refuses every callback', (t) => {
  const testOnly = new RestPaymentChannel({
    test: { baseUrl: 'https://sandbox.channel.test', apiKey: 'k', callbackSecret: TEST_SECRET },
    clock: { now: () => NOW },
  });
  refused(t, () => testOnly.verifyCallback('live', { 'channel-signature': signRestCallback(TEST_SECRET, BODY, NOW_S) }, BODY), 'invalid_signature');
});

const BAD_BODIES: ReadonlyArray<readonly [string, string]> = [
  ['truncated JSON', BODY.slice(0, 30)],
  ['an empty body', ''],
  ['not JSON', 'status=paid&amount=10050'],
  ['an array', `[${BODY}]`],
  ['a float amount', BODY.replace('10050', '100.5')],
  ['an amount as a string', BODY.replace('10050', '"10050"')],
  ['a pending status (not a callback status)', BODY.replace('"paid"', '"pending"')],
  ['an unknown status', BODY.replace('"paid"', '"captured"')],
  ['no reference', JSON.stringify({ id: 'ord_9f2c1d', status: 'paid', amount: 10050, currency: 'THB' })],
  ['an id outside the protocol pattern', BODY.replace('ord_9f2c1d', 'ord 9f2c1d')],
];

for (const [what, body] of BAD_BODIES) {
  test(`verifyCallback: a validly signed callback with ${what} is refused with invalid_callback`, (t) => {
    refused(t, () => channel.verifyCallback('test', { 'channel-signature': signRestCallback(TEST_SECRET, body, NOW_S) }, body), 'invalid_callback');
  });
}

test('verifyCallback: the error never echoes the header or the body', (t) => {
  const body = BODY.replace('"paid"', '"LEAK-ME"');
  const header = signRestCallback(TEST_SECRET, body, NOW_S);
  const error = t.throws(() => channel.verifyCallback('test', { 'channel-signature': header }, body), { instanceOf: CoreError });
  t.false(error?.message.includes('LEAK-ME'));
  const signatureError = t.throws(() => channel.verifyCallback('test', { 'channel-signature': `t=${NOW_S},v1=${'f'.repeat(64)}` }, BODY), {
    instanceOf: CoreError,
  });
  t.false(signatureError?.message.includes('f'.repeat(64)));
});
