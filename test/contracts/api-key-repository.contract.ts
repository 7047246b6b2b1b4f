import test from 'ava';
import { aMerchant, anApiKey, ids, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

/** What every ApiKeyRepository promises. */
export function apiKeyRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} ApiKeyRepository: ${what}`;

  test(title('findByPrefix returns every key with that prefix, revoked ones included, each with its merchant, and no other'), async (t) => {
    const { apiKeys, merchants } = storage();
    const merchant = aMerchant({ liveEnabled: true });
    await merchants.insert(merchant);
    const prefix = `sk_test_${ids.token().slice(0, 8)}`;
    const active = anApiKey({ merchantId: merchant.id, prefix, name: 'Default test key' });
    const revoked = anApiKey({ merchantId: merchant.id, prefix, created: new Date(T0.getTime() + 1000), revokedAt: new Date(T0.getTime() + 2000) });
    const other = anApiKey({ merchantId: merchant.id });
    for (const key of [active, revoked, other]) await apiKeys.insert(key);

    const found = await apiKeys.findByPrefix(prefix);
    t.deepEqual(found, [
      { key: active, merchant },
      { key: revoked, merchant },
    ]);
    t.deepEqual(await apiKeys.findByPrefix(`sk_test_${ids.token().slice(0, 8)}`), []);
  });

  test(title('findByPrefix leaves out a key whose merchant is gone'), async (t) => {
    const { apiKeys } = storage();
    const orphan = anApiKey();
    await apiKeys.insert(orphan);
    t.deepEqual(await apiKeys.findByPrefix(orphan.prefix), []);
  });

  test(title('a live key keeps its mode and an unnamed key has no name property'), async (t) => {
    const { apiKeys, merchants } = storage();
    const merchant = aMerchant();
    await merchants.insert(merchant);
    const live = anApiKey({ merchantId: merchant.id, mode: 'live', prefix: `sk_live_${ids.token().slice(0, 8)}` });
    await apiKeys.insert(live);
    const [read] = await apiKeys.findByPrefix(live.prefix);
    t.is(read?.key.mode, 'live');
    t.false(read !== undefined && 'name' in read.key);
    t.false(read !== undefined && 'revokedAt' in read.key);
  });

  test(title('a restricted key keeps its permissions, through findByPrefix, findById, listActive and revoke; a secret key has none'), async (t) => {
    const { apiKeys, merchants } = storage();
    const merchant = aMerchant({ liveEnabled: true });
    await merchants.insert(merchant);
    const restricted = anApiKey({
      merchantId: merchant.id,
      prefix: `rk_live_${ids.token().slice(0, 8)}`,
      mode: 'live',
      permissions: { payment_intents: 'write', refunds: 'read', webhook_public_keys: 'read' },
    });
    const secret = anApiKey({ merchantId: merchant.id, created: new Date(T0.getTime() + 1000) });
    for (const key of [restricted, secret]) await apiKeys.insert(key);

    const [found] = await apiKeys.findByPrefix(restricted.prefix);
    t.deepEqual(found, { key: restricted, merchant });
    t.deepEqual(found?.key.permissions, { payment_intents: 'write', refunds: 'read', webhook_public_keys: 'read' });
    t.deepEqual(await apiKeys.findById(merchant.id, restricted.id), restricted);
    t.deepEqual(await apiKeys.listActive(merchant.id), [secret, restricted]);
    t.false('permissions' in ((await apiKeys.findById(merchant.id, secret.id)) ?? {}), 'a secret key has no permissions property');
    t.deepEqual((await apiKeys.revoke(merchant.id, restricted.id, T0))?.permissions, restricted.permissions);
  });

  test(title("listActive is the merchant's keys that are not revoked, newest first, both modes"), async (t) => {
    const { apiKeys } = storage();
    const merchantId = ids.merchant();
    const older = anApiKey({ merchantId });
    const live = anApiKey({ merchantId, mode: 'live', prefix: `sk_live_${ids.token().slice(0, 8)}`, created: new Date(T0.getTime() + 1000) });
    const revoked = anApiKey({ merchantId, created: new Date(T0.getTime() + 2000), revokedAt: new Date(T0.getTime() + 3000) });
    for (const key of [older, live, revoked, anApiKey()]) await apiKeys.insert(key);
    t.deepEqual(await apiKeys.listActive(merchantId), [live, older]);
  });

  test(title("findById and revoke reach the merchant's own key only; the first revocation time stays"), async (t) => {
    const { apiKeys, merchants } = storage();
    const merchant = aMerchant();
    await merchants.insert(merchant);
    const key = anApiKey({ merchantId: merchant.id });
    await apiKeys.insert(key);
    t.deepEqual(await apiKeys.findById(key.merchantId, key.id), key);
    t.is(await apiKeys.findById(ids.merchant(), key.id), undefined);
    t.is(await apiKeys.revoke(ids.merchant(), key.id, T0), undefined);
    const first = new Date(T0.getTime() + 5000);
    t.deepEqual(await apiKeys.revoke(key.merchantId, key.id, first), { ...key, revokedAt: first });
    t.deepEqual((await apiKeys.revoke(key.merchantId, key.id, new Date(T0.getTime() + 9000)))?.revokedAt, first);
    t.deepEqual((await apiKeys.findByPrefix(key.prefix))[0]?.key.revokedAt, first, 'authentication sees the revocation at once');
    t.deepEqual(await apiKeys.listActive(key.merchantId), []);
  });
}
