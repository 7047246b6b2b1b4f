import test from 'ava';
import { AuthenticateApiKey } from '../../src/merchants/use-cases/authenticate-api-key.use-case';
import { ResolveApiVersion } from '../../src/merchants/use-cases/resolve-api-version.use-case';
import { harness } from './harness';

test('a new merchant gets an owner and a working test key stored as prefix and digest only', async (t) => {
  const h = harness();
  const { merchant, owner, testApiKey } = await h.newMerchant();
  t.regex(testApiKey.secret, /^sk_test_[0-9A-Za-z]{32}$/);
  t.is(testApiKey.key.prefix, testApiKey.secret.slice(0, 16));
  t.false(JSON.stringify(h.storage.store).includes(testApiKey.secret));
  t.like(owner, { role: 'owner', merchantId: merchant.id, status: 'active' });
  t.false(owner.passwordHash.includes('a long enough password'));
  const caller = await new AuthenticateApiKey({ keys: h.storage.apiKeys, digest: h.digest }).execute(testApiKey.secret);
  t.like(caller, { mode: 'test', apiKeyId: testApiKey.key.id });
  t.is(caller.merchant.id, merchant.id);
});

test('keys that are missing, malformed, unknown or altered are 401', async (t) => {
  const h = harness();
  const { testApiKey } = await h.newMerchant();
  const auth = new AuthenticateApiKey({ keys: h.storage.apiKeys, digest: h.digest });
  const altered = testApiKey.secret.slice(0, -1) + (testApiKey.secret.endsWith('a') ? 'b' : 'a');
  for (const secret of [undefined, '', 'sk_test_short', altered, 'sk_live_' + testApiKey.secret.slice(8)]) {
    const error = await t.throwsAsync(auth.execute(secret));
    t.like(error, { code: 'authentication_required', category: 'authentication' }, String(secret));
  }
});

test('live keys wait for review: minting and using them is live_not_enabled until live opens', async (t) => {
  const h = harness();
  const { merchant } = await h.newMerchant();
  t.like(await t.throwsAsync(h.issueApiKey.execute({ merchantId: merchant.id, mode: 'live' })), { code: 'live_not_enabled' });
  await h.storage.merchants.setLiveEnabled(merchant.id, true);
  const live = await h.issueApiKey.execute({ merchantId: merchant.id, mode: 'live' });
  t.regex(live.secret, /^sk_live_/);
  await h.storage.merchants.setLiveEnabled(merchant.id, false);
  const auth = new AuthenticateApiKey({ keys: h.storage.apiKeys, digest: h.digest });
  t.like(await t.throwsAsync(auth.execute(live.secret)), { code: 'live_not_enabled', category: 'forbidden' });
});

test('the first request pins the version; a later current version would not move the pin', async (t) => {
  const h = harness();
  const { merchant } = await h.newMerchant();
  const resolve = new ResolveApiVersion({ merchants: h.storage.merchants });
  t.is(await resolve.execute({ merchant }), '2026-09-01');
  t.is((await h.storage.merchants.findById(merchant.id))?.apiVersion, '2026-09-01');
  t.is(await h.storage.merchants.pinApiVersion(merchant.id, '2099-01-01'), '2026-09-01');
  t.like(await t.throwsAsync(resolve.execute({ merchant, requested: '2025-01-01' })), { code: 'invalid_api_version', param: 'Api-Version' });
});

test('an owner email is one account', async (t) => {
  const h = harness();
  await h.createMerchant.execute({ name: 'A', email: 'same@example.com', password: 'a long enough password' });
  const error = await t.throwsAsync(h.createMerchant.execute({ name: 'B', email: 'Same@Example.com', password: 'a long enough password' }));
  t.like(error, { code: 'email_taken' });
  // The failed onboarding left no merchant behind.
  t.is([...JSON.stringify(h.storage.store).matchAll(/"name":"B"/g)].length, 0);
});
