import test from 'ava';
import { anApiKey, ids, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

/** What every ApiKeyRepository promises. */
export function apiKeyRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} ApiKeyRepository: ${what}`;

  test(title('findByPrefix returns every key with that prefix, revoked ones included, and no other'), async (t) => {
    const { apiKeys } = storage();
    const prefix = `sk_test_${ids.token().slice(0, 8)}`;
    const active = anApiKey({ prefix, name: 'Default test key' });
    const revoked = anApiKey({ prefix, created: new Date(T0.getTime() + 1000), revokedAt: new Date(T0.getTime() + 2000) });
    const other = anApiKey();
    for (const key of [active, revoked, other]) await apiKeys.insert(key);

    const found = await apiKeys.findByPrefix(prefix);
    t.deepEqual(
      found.map((key) => key.id).sort(),
      [active.id, revoked.id].sort(),
    );
    t.deepEqual(found.find((key) => key.id === active.id), active);
    t.deepEqual(found.find((key) => key.id === revoked.id), revoked);
    t.deepEqual(await apiKeys.findByPrefix(`sk_test_${ids.token().slice(0, 8)}`), []);
  });

  test(title('a live key keeps its mode and an unnamed key has no name property'), async (t) => {
    const { apiKeys } = storage();
    const live = anApiKey({ mode: 'live', prefix: `sk_live_${ids.token().slice(0, 8)}` });
    await apiKeys.insert(live);
    const [read] = await apiKeys.findByPrefix(live.prefix);
    t.is(read?.mode, 'live');
    t.false(read !== undefined && 'name' in read);
    t.false(read !== undefined && 'revokedAt' in read);
  });

  test(title('listActive is the merchant\'s keys that are not revoked, newest first, both modes'), async (t) => {
    const { apiKeys } = storage();
    const merchantId = ids.merchant();
    const older = anApiKey({ merchantId });
    const live = anApiKey({ merchantId, mode: 'live', prefix: `sk_live_${ids.token().slice(0, 8)}`, created: new Date(T0.getTime() + 1000) });
    const revoked = anApiKey({ merchantId, created: new Date(T0.getTime() + 2000), revokedAt: new Date(T0.getTime() + 3000) });
    for (const key of [older, live, revoked, anApiKey()]) await apiKeys.insert(key);
    t.deepEqual(await apiKeys.listActive(merchantId), [live, older]);
  });

  test(title('findById and revoke reach the merchant\'s own key only; the first revocation time stays'), async (t) => {
    const { apiKeys } = storage();
    const key = anApiKey();
    await apiKeys.insert(key);
    t.deepEqual(await apiKeys.findById(key.merchantId, key.id), key);
    t.is(await apiKeys.findById(ids.merchant(), key.id), undefined);
    t.is(await apiKeys.revoke(ids.merchant(), key.id, T0), undefined);
    const first = new Date(T0.getTime() + 5000);
    t.deepEqual(await apiKeys.revoke(key.merchantId, key.id, first), { ...key, revokedAt: first });
    t.deepEqual((await apiKeys.revoke(key.merchantId, key.id, new Date(T0.getTime() + 9000)))?.revokedAt, first);
    t.deepEqual((await apiKeys.findByPrefix(key.prefix))[0]?.revokedAt, first, 'authentication sees the revocation at once');
    t.deepEqual(await apiKeys.listActive(key.merchantId), []);
  });
}
