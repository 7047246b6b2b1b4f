import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import { webhookSignatureHeaders } from '@payments/core';
import { CryptoWebhookCrypto } from '@payments/node-runtime';
import { AuthenticationError, Payments, SignatureVerificationError, WebCryptoProvider, type Event, type SignatureFailureReason } from '@payments/sdk';
import { fakeApi, KEY } from './helpers/fake-api';

/** The merchant every test event names (a client verifying by the platform key must be its). */
const ACCOUNT = 'mch_1';
const payments = new Payments(KEY, { account: ACCOUNT });
const webhooks = payments.webhooks;
const SECRET = 'a'.repeat(64);
const OTHER_SECRET = 'b'.repeat(64);
const body = JSON.stringify({
  id: 'evt_ABC',
  type: 'payment_intent.succeeded',
  created: '2026-09-01T00:00:00Z',
  livemode: false,
  data: { id: 'pi_1', object: 'payment_intent', status: 'succeeded', merchant: 'mch_1', mode: 'test' },
});
const now = () => Math.floor(Date.now() / 1000);

/** A platform key pair as the service holds it: raw 32-byte public key and seed, base64. */
const platform = new CryptoWebhookCrypto().generateEd25519();
const KID = 'key_TESTKEY';

/** Every header the service itself would send (core's signer), for `body` at time `t`. */
function serviceHeaders(payload = body, t = now(), secret = SECRET): Record<string, string> {
  return webhookSignatureHeaders(new CryptoWebhookCrypto(), {
    eventId: 'evt_ABC',
    timestamp: t,
    body: payload,
    secretHex: secret,
    secretVersion: 3,
    platformKeyId: KID,
    platformPrivateKey: platform.privateKey,
  });
}

/** The X-Webhook-Signature the service would send. */
function serviceHeader(payload = body, t = now(), secret = SECRET): string {
  return serviceHeaders(payload, t, secret)['x-webhook-signature'] ?? '';
}

/** Only the Standard Webhooks headers of a delivery, as Node's req.headers would hold them. */
function standardOnly(headers = serviceHeaders()): Record<string, string> {
  const { 'x-webhook-signature': _own, ...rest } = headers;
  return rest;
}

const PUBLIC_KEYS = { [KID]: platform.publicKey };
/** The endpoint secret as Standard Webhooks libraries spell it. */
const WHSEC = `whsec_${Buffer.from(SECRET, 'hex').toString('base64')}`;

function reasonOf(run: () => unknown): SignatureFailureReason | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof SignatureVerificationError) return error.reason;
    throw error;
  }
  return undefined;
}

test('a delivery signed by the service verifies by v1 (secret) and by v2 (public keys, as a map or the API list)', (t) => {
  const header = serviceHeader();
  const bySecret = webhooks.constructEvent(body, header, { secret: SECRET });
  t.is(bySecret.id, 'evt_ABC');
  t.is(webhooks.constructEvent(Buffer.from(body), header, { publicKeys: { [KID]: platform.publicKey } }).type, 'payment_intent.succeeded');
  const list = {
    object: 'list' as const,
    has_more: false,
    data: [{ id: KID, object: 'webhook_public_key' as const, algorithm: 'ed25519' as const, public_key: platform.publicKey }],
  };
  t.is(webhooks.constructEvent(body, header, { publicKeys: list }).id, 'evt_ABC');
  t.is(webhooks.constructEvent(body, header, { publicKeys: list.data }).id, 'evt_ABC');
  // Either signature is enough: a wrong secret with a good v2 still verifies.
  t.is(webhooks.constructEvent(body, header, { secret: OTHER_SECRET, publicKeys: { [KID]: platform.publicKey } }).id, 'evt_ABC');
});

test('the event union narrows by type', (t) => {
  const event: Event = webhooks.constructEvent(body, serviceHeader(), { secret: SECRET });
  switch (event.type) {
    case 'payment_intent.succeeded':
      t.is(event.data.status, 'succeeded');
      break;
    default:
      t.fail(`unexpected ${event.type}`);
  }
});

test('unknown header fields are ignored', (t) => {
  t.is(webhooks.constructEvent(body, `${serviceHeader()},v9=future,x=1`, { secret: SECRET }).id, 'evt_ABC');
});

test('a wrong secret says so', (t) => {
  const error = t.throws(
    () => {
      webhooks.constructEvent(body, serviceHeader(), { secret: OTHER_SECRET });
    },
    { instanceOf: SignatureVerificationError },
  );
  t.is(error?.reason, 'wrong_secret');
  t.regex(error?.message ?? '', /secret of this endpoint and mode/);
  t.false((error?.message ?? '').includes(OTHER_SECRET));
});

test('a body changed since signing says so: re-serialized JSON, edited bytes under v2, or a parsed object', (t) => {
  const pretty = JSON.stringify(JSON.parse(body), null, 2);
  const error = t.throws(
    () => {
      webhooks.constructEvent(pretty, serviceHeader(), { secret: SECRET });
    },
    { instanceOf: SignatureVerificationError },
  );
  t.is(error?.reason, 'body_changed');
  t.regex(error?.message ?? '', /raw body/);
  const edited = body.replace('"succeeded"', '"failed"');
  t.is(
    reasonOf(() => webhooks.constructEvent(edited, serviceHeader(), { publicKeys: { [KID]: platform.publicKey } })),
    'body_changed',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(edited, serviceHeader(), { secret: SECRET, publicKeys: { [KID]: platform.publicKey } })),
    'body_changed',
  );
  t.is(
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a caller's parsed object where the raw body belongs
    reasonOf(() => webhooks.constructEvent(JSON.parse(body) as never, serviceHeader(), { secret: SECRET })),
    'body_changed',
  );
});

test('a timestamp outside the tolerance says so, old or in the future; the tolerance can be set', (t) => {
  const old = t.throws(
    () => {
      webhooks.constructEvent(body, serviceHeader(body, now() - 301), { secret: SECRET });
    },
    { instanceOf: SignatureVerificationError },
  );
  t.is(old?.reason, 'timestamp_outside_tolerance');
  t.regex(old?.message ?? '', /30[1-2] s old \(tolerance 300 s\)/);
  t.is(
    reasonOf(() => webhooks.constructEvent(body, serviceHeader(body, now() + 400), { secret: SECRET })),
    'timestamp_outside_tolerance',
  );
  t.is(webhooks.constructEvent(body, serviceHeader(body, now() - 500), { secret: SECRET }, { tolerance: 600 }).id, 'evt_ABC');
  t.is(
    reasonOf(() => webhooks.constructEvent(body, serviceHeader(body, now() - 20), { secret: SECRET }, { tolerance: 10 })),
    'timestamp_outside_tolerance',
  );
});

test('an unknown key id says so', (t) => {
  const error = t.throws(
    () => {
      webhooks.constructEvent(body, serviceHeader(), { publicKeys: { key_OTHER: platform.publicKey } });
    },
    { instanceOf: SignatureVerificationError },
  );
  t.is(error?.reason, 'unknown_key_id');
  t.regex(error?.message ?? '', /key_TESTKEY.*GET \/v1\/webhook_public_keys/);
  t.is(
    reasonOf(() => webhooks.constructEvent(body, serviceHeader().replace(`v2_kid=${KID}`, 'v2_kid=__proto__'), { publicKeys: { [KID]: platform.publicKey } })),
    'unknown_key_id',
  );
});

test('a missing or malformed header, a missing signature, a bad secret and no verifier each say so', (t) => {
  t.is(
    reasonOf(() => webhooks.constructEvent(body, undefined, { secret: SECRET })),
    'malformed_header',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(body, 'v1=abc', { secret: SECRET })),
    'malformed_header',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(body, `t=${now()}`, { secret: SECRET })),
    'no_signature',
  );
  const v2Only = serviceHeader()
    .split(',')
    .filter((part) => !part.startsWith('v1'))
    .join(',');
  t.is(
    reasonOf(() => webhooks.constructEvent(body, v2Only, { secret: SECRET })),
    'no_signature',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(body, serviceHeader(), { secret: 'not-hex' })),
    'invalid_secret',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(body, serviceHeader(), {})),
    'no_verifier',
  );
});

test('generateTestHeader round-trips through constructEvent, with v1, v2 or both', (t) => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const raw = (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(-32).toString('base64');
  const both = webhooks.generateTestHeader({ payload: body, secret: SECRET, privateKey: pem, keyId: 'key_MINE' });
  t.regex(both, /^t=\d+,v1=[0-9a-f]{64},v1_kid=1,v2=[A-Za-z0-9+/=]+,v2_kid=key_MINE$/);
  t.is(webhooks.constructEvent(body, both, { secret: SECRET }).id, 'evt_ABC');
  t.is(webhooks.constructEvent(body, both, { publicKeys: { key_MINE: raw } }).id, 'evt_ABC');
  const old = webhooks.generateTestHeader({ payload: body, secret: SECRET, timestamp: now() - 1000 });
  t.is(
    reasonOf(() => webhooks.constructEvent(body, old, { secret: SECRET })),
    'timestamp_outside_tolerance',
  );
  t.throws(() => webhooks.generateTestHeader({ payload: body }), { instanceOf: TypeError });
});

test('constructEventAsync fetches the platform keys once and caches them by key id', async (t) => {
  const api = await fakeApi(() => ({
    status: 200,
    body: { object: 'list', has_more: false, data: [{ id: KID, object: 'webhook_public_key', algorithm: 'ed25519', public_key: platform.publicKey }] },
  }));
  try {
    const client = new Payments(KEY, { baseUrl: api.baseUrl, account: ACCOUNT });
    t.is((await client.webhooks.constructEventAsync(body, serviceHeader())).id, 'evt_ABC');
    t.is((await client.webhooks.constructEventAsync(body, serviceHeader())).id, 'evt_ABC');
    t.is(api.received.length, 1);
    t.is(api.received[0]?.url.pathname, '/v1/webhook_public_keys');
    const unknown = serviceHeader().replace(`v2_kid=${KID}`, 'v2_kid=key_NEW');
    await t.throwsAsync(client.webhooks.constructEventAsync(body, unknown), { instanceOf: SignatureVerificationError, message: /Unknown key id key_NEW/ });
  } finally {
    await api.close();
  }
});

test('the Standard Webhooks headers alone verify: v1 by the secret (hex or whsec_), v1a by the platform keys, from req.headers or a fetch Headers', async (t) => {
  const headers = standardOnly();
  t.is(webhooks.constructEvent(body, headers, { secret: SECRET }).id, 'evt_ABC');
  t.is(webhooks.constructEvent(body, headers, { secret: WHSEC }).id, 'evt_ABC');
  t.is(webhooks.constructEvent(body, headers, { publicKeys: PUBLIC_KEYS }).id, 'evt_ABC');
  t.is((await webhooks.constructEventAsync(body, new Headers(headers), { secret: SECRET })).id, 'evt_ABC');
  t.is((await webhooks.constructEventAsync(Buffer.from(body), new Headers(headers), { publicKeys: PUBLIC_KEYS })).id, 'evt_ABC');
  // Node gives some repeated headers as arrays; names may come in any case from hand-made records.
  const { 'webhook-id': id, ...others } = headers;
  const asNode = { ...others, 'webhook-signature': (headers['webhook-signature'] ?? '').split(' '), 'Webhook-Id': id };
  t.is(webhooks.constructEvent(body, asNode, { secret: SECRET }).id, 'evt_ABC');
  t.is(
    webhooks.constructEvent(body, { ...headers, 'webhook-signature': `v2,future ${headers['webhook-signature']}` }, { secret: SECRET }).id,
    'evt_ABC',
    'unknown versions are ignored',
  );
});

test('with every header of a delivery either scheme is enough, and a tampered body, id or timestamp is refused', (t) => {
  const headers = serviceHeaders();
  t.is(webhooks.constructEvent(body, headers, { secret: SECRET }).id, 'evt_ABC');
  t.is(webhooks.constructEvent(body, { ...headers, 'x-webhook-signature': 'garbage' }, { secret: SECRET }).id, 'evt_ABC');
  t.is(webhooks.constructEvent(body, { ...headers, 'webhook-signature': 'v1,AAAA' }, { publicKeys: PUBLIC_KEYS }).id, 'evt_ABC');
  const edited = body.replace('"succeeded"', '"failed"');
  t.is(
    reasonOf(() => webhooks.constructEvent(edited, standardOnly(), { secret: SECRET, publicKeys: PUBLIC_KEYS })),
    'body_changed',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(edited, standardOnly(), { secret: SECRET })),
    'wrong_secret',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(body, { ...standardOnly(), 'webhook-id': 'evt_OTHER' }, { secret: SECRET, publicKeys: PUBLIC_KEYS })),
    'body_changed',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(body, { ...standardOnly(), 'webhook-timestamp': String(now() - 1) }, { publicKeys: PUBLIC_KEYS })),
    'body_changed',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(body, standardOnly(serviceHeaders(body, now() - 400)), { secret: SECRET })),
    'timestamp_outside_tolerance',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(body, standardOnly(), { secret: OTHER_SECRET })),
    'wrong_secret',
  );
});

test('headers that cannot be read say so: none at all, a webhook-signature without its id or timestamp, or its value alone', (t) => {
  t.is(
    reasonOf(() => webhooks.constructEvent(body, { 'content-type': 'application/json' }, { secret: SECRET })),
    'malformed_header',
  );
  const { 'webhook-id': _id, ...withoutId } = standardOnly();
  t.is(
    reasonOf(() => webhooks.constructEvent(body, withoutId, { secret: SECRET })),
    'malformed_header',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(body, { ...standardOnly(), 'webhook-signature': 'v9,abc' }, { secret: SECRET })),
    'no_signature',
  );
  const error = t.throws(
    () => {
      webhooks.constructEvent(body, standardOnly()['webhook-signature'], { secret: SECRET });
    },
    { instanceOf: SignatureVerificationError },
  );
  t.is(error?.reason, 'malformed_header');
  t.regex(error?.message ?? '', /pass the request headers/);
});

test('with WebCrypto the async methods verify and sign every way, and the synchronous ones point to them', async (t) => {
  const web = new Payments(KEY, { crypto: new WebCryptoProvider(), account: ACCOUNT }).webhooks;
  t.is((await web.constructEventAsync(body, serviceHeader(), { secret: SECRET })).id, 'evt_ABC');
  t.is((await web.constructEventAsync(body, serviceHeader(), { publicKeys: PUBLIC_KEYS })).id, 'evt_ABC');
  t.is((await web.constructEventAsync(new TextEncoder().encode(body).buffer, new Headers(standardOnly()), { publicKeys: PUBLIC_KEYS })).id, 'evt_ABC');
  t.is((await web.constructEventAsync(body, standardOnly(), { secret: WHSEC })).id, 'evt_ABC');
  const tampered = await t.throwsAsync(web.constructEventAsync(body.replace('pi_1', 'pi_2'), serviceHeaders(), { publicKeys: PUBLIC_KEYS }), {
    instanceOf: SignatureVerificationError,
  });
  t.is(tampered?.reason, 'body_changed');
  t.throws(
    () => {
      web.constructEvent(body, serviceHeader(), { secret: SECRET });
    },
    { instanceOf: TypeError, message: /constructEventAsync/ },
  );

  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const raw = (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(-32).toString('base64');
  const header = await web.generateTestHeaderAsync({ payload: body, secret: SECRET, privateKey: pem, keyId: 'key_MINE' });
  t.is(webhooks.constructEvent(body, header, { secret: SECRET }).id, 'evt_ABC', 'the Node provider agrees with WebCrypto');
  t.is(webhooks.constructEvent(body, header, { publicKeys: { key_MINE: raw } }).id, 'evt_ABC');
  t.is(
    header,
    webhooks.generateTestHeader({ payload: body, secret: SECRET, privateKey: pem, keyId: 'key_MINE', timestamp: Number(/t=(\d+)/.exec(header)?.[1]) }),
  );
});

/*
 * The platform key signs every merchant's deliveries alike, so a key-verified event must name the
 * client's merchant (`data.merchant`) and mode (`livemode`, `data.mode`).
 */

/** `body` as another merchant's or mode's event would be: the same shape, another recipient. */
function eventFor(merchant: string, mode: 'test' | 'live', id = 'evt_ABC'): string {
  return JSON.stringify({
    id,
    type: 'payment_intent.succeeded',
    created: '2026-09-01T00:00:00Z',
    livemode: mode === 'live',
    data: { id: 'pi_1', object: 'payment_intent', status: 'succeeded', merchant, mode },
  });
}

test("by the platform key, another merchant's event is refused (wrong_account) and the other mode's (wrong_mode); by the endpoint secret both pass", (t) => {
  const foreign = eventFor('mch_OTHER', 'test');
  t.is(
    reasonOf(() => webhooks.constructEvent(foreign, serviceHeader(foreign), { publicKeys: PUBLIC_KEYS })),
    'wrong_account',
  );
  t.is(
    reasonOf(() => webhooks.constructEvent(foreign, standardOnly(serviceHeaders(foreign)), { publicKeys: PUBLIC_KEYS })),
    'wrong_account',
    'v1a alike',
  );
  const live = eventFor(ACCOUNT, 'live');
  const error = t.throws(
    () => {
      webhooks.constructEvent(live, serviceHeader(live), { publicKeys: PUBLIC_KEYS });
    },
    { instanceOf: SignatureVerificationError },
  );
  t.is(error?.reason, 'wrong_mode');
  t.is(error?.code, 'wrong_mode');
  t.regex(error?.message ?? '', /live event.*test mode/);
  // A live key's client refuses test events, and takes live ones.
  const liveClient = new Payments('sk_live_0123456789abcdefghijklmnop', { account: ACCOUNT }).webhooks;
  t.is(
    reasonOf(() => liveClient.constructEvent(body, serviceHeader(), { publicKeys: PUBLIC_KEYS })),
    'wrong_mode',
  );
  t.is(liveClient.constructEvent(live, serviceHeader(live), { publicKeys: PUBLIC_KEYS }).id, 'evt_ABC');
  // A restricted live key's client is a live client too; a restricted test key's a test one.
  const restrictedLive = new Payments('rk_live_0123456789abcdefghijklmnop', { account: ACCOUNT }).webhooks;
  t.is(
    reasonOf(() => restrictedLive.constructEvent(body, serviceHeader(), { publicKeys: PUBLIC_KEYS })),
    'wrong_mode',
  );
  t.is(restrictedLive.constructEvent(live, serviceHeader(live), { publicKeys: PUBLIC_KEYS }).id, 'evt_ABC');
  const restrictedTest = new Payments('rk_test_0123456789abcdefghijklmnop', { account: ACCOUNT }).webhooks;
  t.is(
    reasonOf(() => restrictedTest.constructEvent(live, serviceHeader(live), { publicKeys: PUBLIC_KEYS })),
    'wrong_mode',
  );
  // The endpoint secret is the endpoint's own: it binds the recipient by itself.
  t.is(webhooks.constructEvent(foreign, serviceHeader(foreign), { secret: SECRET }).id, 'evt_ABC');
  t.is(webhooks.constructEvent(foreign, serviceHeader(foreign), { secret: SECRET, publicKeys: PUBLIC_KEYS }).id, 'evt_ABC');
  // The recipient is checked after the timestamp, like any valid signature's.
  t.is(
    reasonOf(() => webhooks.constructEvent(foreign, serviceHeader(foreign, now() - 400), { publicKeys: PUBLIC_KEYS })),
    'timestamp_outside_tolerance',
  );
});

test('a client that does not know its merchant refuses key-only deliveries synchronously (no_account), and a bad account option is a TypeError', (t) => {
  const unknown = new Payments(KEY).webhooks;
  const error = t.throws(
    () => {
      unknown.constructEvent(body, serviceHeader(), { publicKeys: PUBLIC_KEYS });
    },
    { instanceOf: SignatureVerificationError },
  );
  t.is(error?.reason, 'no_account');
  t.regex(error?.message ?? '', /account: 'mch_…'.*constructEventAsync/);
  t.is(unknown.constructEvent(body, serviceHeader(), { secret: SECRET }).id, 'evt_ABC', 'the secret needs no account');
  t.throws(() => new Payments(KEY, { account: 'acct_1' }), { instanceOf: TypeError, message: /mch_/ });
});

test('a client made without an API key verifies by the endpoint secret and sends nothing: its API methods reject with an AuthenticationError', async (t) => {
  const api = await fakeApi(() => ({ status: 200, body: {} }));
  try {
    const keyless = new Payments(undefined, { baseUrl: api.baseUrl });
    const tries: string[] = [];
    const asyncReasonOf = async (verifying: Promise<unknown>): Promise<SignatureFailureReason | undefined> => {
      try {
        await verifying;
      } catch (error) {
        if (error instanceof SignatureVerificationError) return error.reason;
        throw error;
      }
      return undefined;
    };
    t.is((await keyless.webhooks.constructEventAsync(body, serviceHeaders(), { secret: SECRET })).id, 'evt_ABC');
    t.is(keyless.webhooks.constructEvent(body, serviceHeader(), { secret: WHSEC }).id, 'evt_ABC');
    t.is(await asyncReasonOf(keyless.webhooks.constructEventAsync(body, serviceHeaders(), { secret: OTHER_SECRET })), 'wrong_secret');
    // No key: no platform keys to fetch, and no mode or merchant a v2 delivery could be held to.
    t.is(await asyncReasonOf(keyless.webhooks.constructEventAsync(body, serviceHeaders())), 'no_verifier');
    t.is(await asyncReasonOf(keyless.webhooks.constructEventAsync(body, serviceHeader(), { publicKeys: PUBLIC_KEYS })), 'no_account');
    const calls = [
      () => keyless.balance.retrieve(),
      () => keyless.paymentIntents.create({ amount: 100, currency: 'THB', merchant_order_id: 'o-1' }),
      () => keyless.events.list().autoPagingToArray({ limit: 10 }),
      () => keyless.exports.settlements(),
      () => keyless.rawRequest('GET', '/v1/balance'),
    ];
    for (const call of calls) {
      const error = await t.throwsAsync(call(), { instanceOf: AuthenticationError });
      t.is(error?.code, 'authentication_required');
      t.regex(error?.message ?? '', /without an API key.*new Payments\(key\)/);
    }
    t.deepEqual(tries, [], 'no try began');
    t.is(api.received.length, 0, 'nothing reached the API');
  } finally {
    await api.close();
  }
  t.throws(() => new Payments(undefined, { account: ACCOUNT }), { instanceOf: TypeError, message: /account needs an API key/ });
  for (const key of ['', 'pk_test_1']) t.throws(() => new Payments(key), { instanceOf: TypeError, message: /or undefined/ });
  t.throws(() => void Reflect.construct(Payments, [null]), { instanceOf: TypeError, message: /or undefined/ }, 'null is not undefined');
});

test('without an account, constructEventAsync learns it once by reading the first key-verified event back; a 404 is wrong_account', async (t) => {
  const keys = { object: 'list', has_more: false, data: [{ id: KID, object: 'webhook_public_key', algorithm: 'ed25519', public_key: platform.publicKey }] };
  const api = await fakeApi((request) => {
    if (request.url.pathname === '/v1/webhook_public_keys') return { status: 200, body: keys };
    if (request.url.pathname === '/v1/events/evt_ABC') return { status: 200, body: JSON.parse(body) as unknown };
    return { status: 404, body: { error: { code: 'resource_not_found', message: 'No such event.' } } };
  });
  try {
    const client = new Payments(KEY, { baseUrl: api.baseUrl, maxNetworkRetries: 0 });
    const eventPaths = () => api.received.filter((request) => request.url.pathname.startsWith('/v1/events/')).map((request) => request.url.pathname);
    // Another merchant's event replayed before the client knows its own: the API has no such event for this key.
    const replayed = eventFor('mch_OTHER', 'test', 'evt_THEIRS');
    const refused = await t.throwsAsync(client.webhooks.constructEventAsync(replayed, serviceHeader(replayed)), { instanceOf: SignatureVerificationError });
    t.is(refused?.reason, 'wrong_account');
    t.regex(refused?.message ?? '', /evt_THEIRS/);
    // The same replay again costs no second look-up.
    t.is(
      (await t.throwsAsync(client.webhooks.constructEventAsync(replayed, serviceHeader(replayed)), { instanceOf: SignatureVerificationError }))?.reason,
      'wrong_account',
    );
    t.deepEqual(eventPaths(), ['/v1/events/evt_THEIRS']);
    // Its own event: read back once, which names the merchant.
    const [first, second] = await Promise.all([
      client.webhooks.constructEventAsync(body, serviceHeader()),
      client.webhooks.constructEventAsync(body, standardOnly()),
    ]);
    t.is(first.id, 'evt_ABC');
    t.is(second.id, 'evt_ABC');
    t.deepEqual(eventPaths(), ['/v1/events/evt_THEIRS', '/v1/events/evt_ABC'], 'deliveries of one event share the look-up');
    // Known now: another merchant's event is refused without asking, and so synchronously too.
    const other = eventFor('mch_OTHER', 'test', 'evt_OTHER');
    t.is(
      (await t.throwsAsync(client.webhooks.constructEventAsync(other, serviceHeader(other)), { instanceOf: SignatureVerificationError }))?.reason,
      'wrong_account',
    );
    t.is(
      (await client.webhooks.constructEventAsync(eventFor(ACCOUNT, 'test', 'evt_MINE2'), serviceHeader(eventFor(ACCOUNT, 'test', 'evt_MINE2')))).id,
      'evt_MINE2',
    );
    t.is(eventPaths().length, 2);
    t.is(client.webhooks.constructEvent(body, serviceHeader(), { publicKeys: PUBLIC_KEYS }).id, 'evt_ABC');
    // The other mode is refused before any look-up.
    const live = eventFor(ACCOUNT, 'live', 'evt_LIVE');
    t.is(
      (await t.throwsAsync(client.webhooks.constructEventAsync(live, serviceHeader(live)), { instanceOf: SignatureVerificationError }))?.reason,
      'wrong_mode',
    );
    t.is(eventPaths().length, 2);
  } finally {
    await api.close();
  }
});

test('a look-up that cannot reach the API fails the delivery with that error (answer 5xx: it is retried), not as a forgery', async (t) => {
  const keys = { object: 'list', has_more: false, data: [{ id: KID, object: 'webhook_public_key', algorithm: 'ed25519', public_key: platform.publicKey }] };
  const api = await fakeApi((request) => (request.url.pathname === '/v1/webhook_public_keys' ? { status: 200, body: keys } : { status: 503, body: {} }));
  try {
    const client = new Payments(KEY, { baseUrl: api.baseUrl, maxNetworkRetries: 0 });
    const error = await t.throwsAsync(client.webhooks.constructEventAsync(body, serviceHeader()));
    t.false(error instanceof SignatureVerificationError);
  } finally {
    await api.close();
  }
});
