import test from 'ava';
import { CoreError } from '@payments/core';
import { aSigningKey, ids, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

/** What every SigningKeyRepository promises. */
export function signingKeyRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} SigningKeyRepository: ${what}`;

  test(title("keys read back field for field, newest first, the merchant's only"), async (t) => {
    const { signingKeys } = storage();
    const merchantId = ids.merchant();
    const older = aSigningKey({ merchantId, name: 'deploy' });
    const newer = aSigningKey({ merchantId, created: new Date(T0.getTime() + 1000) });
    const other = aSigningKey();
    for (const key of [older, newer, other]) await signingKeys.insert(key);
    t.deepEqual(await signingKeys.listByMerchant(merchantId), [newer, older]);
    const [read] = await signingKeys.listByMerchant(merchantId);
    t.false(read !== undefined && 'name' in read, 'an unnamed key has no name property');
    t.deepEqual(await signingKeys.listByMerchant(ids.merchant()), []);
  });

  test(title('the same public key twice for one merchant is signing_key_exists; another merchant may hold it'), async (t) => {
    const { signingKeys } = storage();
    const key = aSigningKey();
    await signingKeys.insert(key);
    const error = await t.throwsAsync(signingKeys.insert(aSigningKey({ merchantId: key.merchantId, publicKey: key.publicKey })), { instanceOf: CoreError });
    t.like(error, { code: 'signing_key_exists', category: 'conflict', param: 'public_key' });
    await t.notThrowsAsync(signingKeys.insert(aSigningKey({ publicKey: key.publicKey })));
    t.is((await signingKeys.listByMerchant(key.merchantId)).length, 1);
  });
}
