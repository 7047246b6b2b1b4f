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

  test(title('claimMfaSecret stores a second factor only when there is none, and forgets the last step'), async (t) => {
    const { users } = storage();
    const user = aUser({ mfaLastStep: 7 });
    await users.insert(user);
    t.true(await users.claimMfaSecret(user.merchantId, user.id, 'sealed-1'));
    t.false(await users.claimMfaSecret(user.merchantId, user.id, 'sealed-2'), 'a second claim loses');
    t.false(await users.claimMfaSecret(ids.merchant(), user.id, 'sealed-3'), "another merchant's id");
    const read = await users.findById(user.merchantId, user.id);
    t.is(read?.mfaSecret, 'sealed-1');
    t.is(read?.mfaLastStep, undefined);
  });

  test(title('spendOneTimeStep accepts each step once, in increasing order, for the current secret only'), async (t) => {
    const { users } = storage();
    const user = aUser({ mfaSecret: 'sealed' });
    await users.insert(user);
    t.true(await users.spendOneTimeStep(user.merchantId, user.id, 'sealed', 100));
    t.false(await users.spendOneTimeStep(user.merchantId, user.id, 'sealed', 100), 'the same step again');
    t.false(await users.spendOneTimeStep(user.merchantId, user.id, 'sealed', 99), 'an earlier step');
    t.false(await users.spendOneTimeStep(user.merchantId, user.id, 'other', 101), 'a secret that was reset meanwhile');
    t.false(await users.spendOneTimeStep(ids.merchant(), user.id, 'sealed', 101), "another merchant's id");
    t.true(await users.spendOneTimeStep(user.merchantId, user.id, 'sealed', 101));
    t.is((await users.findById(user.merchantId, user.id))?.mfaLastStep, 101);
  });

  test(title('of concurrent spends of one step exactly one wins'), async (t) => {
    const { users } = storage();
    const user = aUser({ mfaSecret: 'sealed' });
    await users.insert(user);
    const results = await Promise.all(Array.from({ length: 5 }, () => users.spendOneTimeStep(user.merchantId, user.id, 'sealed', 42)));
    t.is(results.filter(Boolean).length, 1);
  });

  test(title('findByIdForUpdate finds what findById finds, and nothing of another merchant'), async (t) => {
    const { users, uow } = storage();
    const user = aUser({ mfaSecret: 'sealed', mfaLastStep: 3 });
    await users.insert(user);
    t.deepEqual(await uow.run((transaction) => transaction.bind(users).findByIdForUpdate(user.merchantId, user.id)), user);
    t.is(await uow.run((transaction) => transaction.bind(users).findByIdForUpdate(ids.merchant(), user.id)), undefined);
  });

  test(title('read-modify-writes of one user through findByIdForUpdate never undo each other'), async (t) => {
    const { users, uow } = storage();
    const user = aUser({ role: 'viewer', status: 'active' });
    await users.insert(user);
    // Each changes one field of the row it read; a write of a stale read would put the other back.
    await Promise.all([
      uow.run(async (transaction) => {
        const bound = transaction.bind(users);
        const read = await bound.findByIdForUpdate(user.merchantId, user.id);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await bound.update({ ...read!, role: 'admin' });
      }),
      uow.run(async (transaction) => {
        const bound = transaction.bind(users);
        const read = await bound.findByIdForUpdate(user.merchantId, user.id);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await bound.update({ ...read!, status: 'disabled' });
      }),
    ]);
    t.like(await users.findById(user.merchantId, user.id), { role: 'admin', status: 'disabled' });
  });

  test(title('update clears the second factor when the entity has none'), async (t) => {
    const { users } = storage();
    const user = aUser({ mfaSecret: 'sealed', mfaLastStep: 5 });
    await users.insert(user);
    const { mfaSecret: _s, mfaLastStep: _l, ...cleared } = user;
    void _s;
    void _l;
    await users.update(cleared);
    t.deepEqual(await users.findById(user.merchantId, user.id), cleared);
  });
}
