import test from 'ava';
import { webhookSignatureHeaders } from '@payments/core';
import { CryptoWebhookCrypto } from '@payments/node-runtime';
import { ApiError, Payments, REMOVED_KEY_GRACE_SECONDS, SignatureVerificationError } from '@payments/sdk';
import { apiError, fakeApi, KEY, type Reply } from './helpers/fake-api';

/*
 * The platform keys constructEventAsync fetches from GET /v1/webhook_public_keys: one fetch for
 * deliveries that arrive together, no poisoned cache after a failed fetch, and a grace period for
 * keys the list drops. Serial: one test moves Date.now.
 */

const crypto = new CryptoWebhookCrypto();
const keyPairs = { key_A: crypto.generateEd25519(), key_B: crypto.generateEd25519(), key_C: crypto.generateEd25519() };
type KeyId = keyof typeof keyPairs;
const ACCOUNT = 'mch_1';
const body = JSON.stringify({
  id: 'evt_KEYS',
  type: 'payment_intent.canceled',
  created: '2026-09-01T00:00:00Z',
  livemode: false,
  data: { id: 'pi_1', object: 'payment_intent', status: 'canceled', merchant: ACCOUNT, mode: 'test' },
});

/** The headers the service would send, signed by platform key `kid` at this moment's clock. */
function signedBy(kid: KeyId): Record<string, string> {
  return webhookSignatureHeaders(crypto, {
    eventId: 'evt_KEYS',
    timestamp: Math.floor(Date.now() / 1000),
    body,
    secretHex: 'c'.repeat(64),
    secretVersion: 1,
    platformKeyId: kid,
    platformPrivateKey: keyPairs[kid].privateKey,
  });
}

function keyList(...ids: KeyId[]): Reply {
  return {
    status: 200,
    body: {
      object: 'list',
      has_more: false,
      data: ids.map((id) => ({ id, object: 'webhook_public_key', algorithm: 'ed25519', public_key: keyPairs[id].publicKey })),
    },
  };
}

const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

test.serial('deliveries arriving together on a cold start share one key fetch and all verify, by either header scheme', async (t) => {
  const api = await fakeApi(async () => {
    await later(150);
    return keyList('key_A');
  });
  try {
    const payments = new Payments(KEY, { baseUrl: api.baseUrl, account: ACCOUNT });
    const { 'x-webhook-signature': own, ...standard } = signedBy('key_A');
    const deliveries = Array.from({ length: 20 }, (_, i) => payments.webhooks.constructEventAsync(body, i % 2 === 0 ? own : standard));
    const events = await Promise.all(deliveries);
    t.true(events.every((event) => event.id === 'evt_KEYS'));
    t.is(api.received.length, 1);
  } finally {
    await api.close();
  }
});

test.serial('a failed key fetch fails only the deliveries that shared it: the next one fetches again after a short backoff', async (t) => {
  const api = await fakeApi(async (_req, index) => {
    await later(50);
    return index === 0 ? { status: 503, body: apiError('unavailable') } : keyList('key_A');
  });
  try {
    const payments = new Payments(KEY, { baseUrl: api.baseUrl, maxNetworkRetries: 0, account: ACCOUNT });
    const header = signedBy('key_A')['x-webhook-signature'];
    const first = await Promise.allSettled(Array.from({ length: 5 }, () => payments.webhooks.constructEventAsync(body, header)));
    t.true(first.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof ApiError));
    t.is(api.received.length, 1, 'the five shared one fetch');
    const started = Date.now();
    t.is((await payments.webhooks.constructEventAsync(body, header)).id, 'evt_KEYS');
    t.true(Date.now() - started < 2_000);
    t.is(api.received.length, 2);
  } finally {
    await api.close();
  }
});

test.serial('a key the list drops stays trusted for the grace period; an unknown key id is looked for once, and not again for 10 s', async (t) => {
  const lists: Reply[] = [keyList('key_A'), keyList('key_A', 'key_B'), keyList('key_A', 'key_B'), keyList('key_B', 'key_C'), keyList('key_B', 'key_C')];
  const api = await fakeApi((_req, index) => lists[index] ?? { status: 500, body: apiError('api_error') });
  const realNow = Date.now;
  let offset = 0;
  Date.now = () => realNow() + offset;
  try {
    const payments = new Payments(KEY, { baseUrl: api.baseUrl, maxNetworkRetries: 0, account: ACCOUNT });
    const verify = (kid: KeyId) => payments.webhooks.constructEventAsync(body, signedBy(kid)['x-webhook-signature']);
    t.is((await verify('key_A')).id, 'evt_KEYS');
    t.is(api.received.length, 1);

    // Within a second of a fetch nothing is fetched, whatever key a delivery names.
    offset = 500;
    t.is((await t.throwsAsync(verify('key_B'), { instanceOf: SignatureVerificationError }))?.reason, 'unknown_key_id');
    t.is(api.received.length, 1);

    // A key id never looked for is fetched (a key published since, or a new listen run's key).
    offset = 2_000;
    t.is((await verify('key_B')).id, 'evt_KEYS');
    t.is(api.received.length, 2);

    // One the list did not have is not looked for again for 10 s.
    offset = 4_000;
    t.is((await t.throwsAsync(verify('key_C'), { instanceOf: SignatureVerificationError }))?.reason, 'unknown_key_id');
    t.is(api.received.length, 3, 'key_C was looked for once');
    offset = 6_000;
    t.is((await t.throwsAsync(verify('key_C'), { instanceOf: SignatureVerificationError }))?.reason, 'unknown_key_id');
    t.is(api.received.length, 3, 'and not again within 10 s');

    offset = 15_000;
    t.is((await verify('key_C')).id, 'evt_KEYS');
    t.is(api.received.length, 4, 'key_C was fetched; the list no longer has key_A');
    t.is((await verify('key_A')).id, 'evt_KEYS', 'key_A is in its grace period');
    t.is(api.received.length, 4);

    offset = 15_000 + REMOVED_KEY_GRACE_SECONDS * 1000 + 1_000;
    t.is((await t.throwsAsync(verify('key_A'), { instanceOf: SignatureVerificationError }))?.reason, 'unknown_key_id');
    t.is(api.received.length, 5, 'past its grace key_A counts as unknown, and the list is asked once more');

    // An old list is fetched again; when that fails the keys held still verify.
    offset += 2 * 3600 * 1000;
    t.is((await verify('key_B')).id, 'evt_KEYS');
    t.is(api.received.length, 6);
  } finally {
    Date.now = realNow;
    await api.close();
  }
});
