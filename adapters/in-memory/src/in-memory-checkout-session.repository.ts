import type { CheckoutSession, CheckoutSessionRepository } from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryCheckoutSessionRepository implements CheckoutSessionRepository {
  constructor(private readonly store: InMemoryStore) {}

  insert(session: CheckoutSession): Promise<void> {
    return this.store.atomic(() => {
      if (this.store.tables.checkoutSessions.has(session.tokenDigest)) throw new Error('Duplicate checkout session token digest');
      this.store.tables.checkoutSessions.set(session.tokenDigest, deepCopy(session));
    });
  }

  findByTokenDigest(tokenDigest: string): Promise<CheckoutSession | undefined> {
    return this.store.atomic(() => deepCopy(this.store.tables.checkoutSessions.get(tokenDigest)));
  }
}
