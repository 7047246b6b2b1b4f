import test from 'ava';
import { CoreError } from '@payments/core';
import { aMerchant, ids } from '../fixtures';
import { sharedStorage, withOwnStorage, type StorageAdapter } from './storage-adapters';

/** What every MerchantRepository promises. */
export function merchantRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} MerchantRepository: ${what}`;

  test(title('a stored merchant reads back field for field, apiVersion absent until pinned'), async (t) => {
    const { merchants } = storage();
    const merchant = aMerchant({ settlementSchedule: 'weekly', settlementDelayDays: 0, liveEnabled: true });
    await merchants.insert(merchant);
    const read = await merchants.findById(merchant.id);
    t.deepEqual(read, merchant);
    t.false(read !== undefined && 'apiVersion' in read, 'no apiVersion property, not an undefined one');
    t.true(read?.created instanceof Date);
  });

  test(title('an unknown id is undefined'), async (t) => {
    t.is(await storage().merchants.findById(ids.merchant()), undefined);
  });

  test(title('isEmpty is true only before the first merchant'), async (t) => {
    await withOwnStorage(adapter, async ({ merchants }) => {
      t.true(await merchants.isEmpty());
      await merchants.insert(aMerchant());
      t.false(await merchants.isEmpty());
    });
  });

  test(title('the first pinned API version wins, also under concurrency'), async (t) => {
    const { merchants } = storage();
    const merchant = aMerchant();
    await merchants.insert(merchant);
    const answers = await Promise.all(['2026-09-01', '2027-01-01', '2027-06-01'].map((version) => merchants.pinApiVersion(merchant.id, version)));
    t.is(new Set(answers).size, 1, `every caller sees the same pin: ${answers.join(', ')}`);
    const pinned = answers[0];
    t.is(await merchants.pinApiVersion(merchant.id, '2099-12-31'), pinned);
    t.is((await merchants.findById(merchant.id))?.apiVersion, pinned);
  });

  test(title('pinning an unknown merchant is resource_not_found'), async (t) => {
    const error = await t.throwsAsync(storage().merchants.pinApiVersion(ids.merchant(), '2026-09-01'), { instanceOf: CoreError });
    t.is(error?.code, 'resource_not_found');
  });

  test(title('live mode opens and closes, repeatably; an unknown merchant answers false'), async (t) => {
    const { merchants } = storage();
    const merchant = aMerchant();
    await merchants.insert(merchant);
    t.true(await merchants.setLiveEnabled(merchant.id, true));
    t.true(await merchants.setLiveEnabled(merchant.id, true), 'setting the same value again still finds the merchant');
    t.true((await merchants.findById(merchant.id))?.liveEnabled);
    t.true(await merchants.setLiveEnabled(merchant.id, false));
    t.false((await merchants.findById(merchant.id))?.liveEnabled);
    t.false(await merchants.setLiveEnabled(ids.merchant(), true));
  });

  test(title('updateSettings writes only the fields given, null clears, and the rest stays'), async (t) => {
    const { merchants } = storage();
    const merchant = aMerchant();
    await merchants.insert(merchant);
    const first = await merchants.updateSettings(merchant.id, { supportEmail: 'help@example.com', statementDescriptor: 'SIAM COFFEE' });
    t.deepEqual(first, { ...merchant, supportEmail: 'help@example.com', statementDescriptor: 'SIAM COFFEE' });
    const second = await merchants.updateSettings(merchant.id, { name: 'Siam Roasters', settlementSchedule: 'manual', supportEmail: null });
    t.deepEqual(second, { ...merchant, name: 'Siam Roasters', settlementSchedule: 'manual', statementDescriptor: 'SIAM COFFEE' });
    t.false(second !== undefined && 'supportEmail' in second, 'a cleared field is absent, not undefined');
    t.deepEqual(await merchants.findById(merchant.id), second);
    t.deepEqual(await merchants.updateSettings(merchant.id, {}), second);
    t.is(await merchants.updateSettings(ids.merchant(), { name: 'x' }), undefined);
  });
}
