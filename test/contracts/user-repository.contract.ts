import test from 'ava';
import { CoreError } from '@payments/core';
import { aUser, ids } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

/** What every UserRepository promises. */
export function userRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} UserRepository: ${what}`;

  test(title('a user is found by email, optional name absent when not given'), async (t) => {
    const { users } = storage();
    const named = aUser({ name: 'Nok', role: 'developer' });
    const unnamed = aUser({ status: 'disabled' });
    await users.insert(named);
    await users.insert(unnamed);
    t.deepEqual(await users.findByEmail(named.email), named);
    const read = await users.findByEmail(unnamed.email);
    t.deepEqual(read, unnamed);
    t.false(read !== undefined && 'name' in read);
  });

  test(title('an unknown email is undefined'), async (t) => {
    t.is(await storage().users.findByEmail(`nobody-${ids.token()}@example.com`), undefined);
  });

  test(title('an email already used, by any merchant, is email_taken'), async (t) => {
    const { users } = storage();
    const first = aUser();
    await users.insert(first);
    const error = await t.throwsAsync(users.insert(aUser({ email: first.email })), { instanceOf: CoreError });
    t.is(error?.code, 'email_taken');
    t.is(error?.category, 'conflict');
    t.is(error?.param, 'email');
    t.is((await users.findByEmail(first.email))?.id, first.id, 'the first account is untouched');
  });
}
