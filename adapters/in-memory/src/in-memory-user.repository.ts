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

  findById(merchantId: string, id: string): Promise<User | undefined> {
    return this.store.atomic(() => {
      const user = this.store.tables.users.get(id);
      return user && user.merchantId === merchantId ? deepCopy(user) : undefined;
    });
  }

  /** Units of work run one at a time here, so a plain read is already as good as a locked one. */
  findByIdForUpdate(merchantId: string, id: string): Promise<User | undefined> {
    return this.findById(merchantId, id);
  }

  listByMerchant(merchantId: string): Promise<User[]> {
    return this.store.atomic(() =>
      [...this.store.tables.users.values()]
        .filter((user) => user.merchantId === merchantId)
        .sort((a, b) => a.created.getTime() - b.created.getTime() || a.id.localeCompare(b.id))
        .map((user) => deepCopy(user)),
    );
  }

  update(user: User): Promise<void> {
    return this.store.atomic(() => {
      const existing = this.store.tables.users.get(user.id);
      if (!existing || existing.merchantId !== user.merchantId) return;
      this.store.tables.users.set(user.id, deepCopy({ ...user, email: existing.email, created: existing.created }));
    });
  }

  claimMfaSecret(merchantId: string, id: string, sealedSecret: string): Promise<boolean> {
    return this.store.atomic(() => {
      const existing = this.store.tables.users.get(id);
      if (!existing || existing.merchantId !== merchantId || existing.mfaSecret !== undefined) return false;
      const { mfaLastStep: _forgotten, ...rest } = existing;
      void _forgotten;
      this.store.tables.users.set(id, { ...rest, mfaSecret: sealedSecret });
      return true;
    });
  }

  spendOneTimeStep(merchantId: string, id: string, sealedSecret: string, step: number): Promise<boolean> {
    return this.store.atomic(() => {
      const existing = this.store.tables.users.get(id);
      if (!existing || existing.merchantId !== merchantId || existing.mfaSecret !== sealedSecret) return false;
      if (existing.mfaLastStep !== undefined && existing.mfaLastStep >= step) return false;
      this.store.tables.users.set(id, { ...existing, mfaLastStep: step });
      return true;
    });
  }
}
