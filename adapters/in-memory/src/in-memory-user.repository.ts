import { CoreError, type User, type UserRepository } from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryUserRepository implements UserRepository {
  constructor(private readonly store: InMemoryStore) {}

  insert(user: User): Promise<void> {
    return this.store.atomic(() => {
      const users = this.store.tables.users;
      if ([...users.values()].some((existing) => existing.email === user.email)) {
        throw new CoreError('email_taken', 'conflict', 'An account with this email already exists.', { param: 'email' });
      }
      if (users.has(user.id)) throw new Error(`Duplicate user id ${user.id}`);
      users.set(user.id, deepCopy(user));
    });
  }

  findByEmail(email: string): Promise<User | undefined> {
    return this.store.atomic(() => deepCopy([...this.store.tables.users.values()].find((user) => user.email === email)));
  }
}
