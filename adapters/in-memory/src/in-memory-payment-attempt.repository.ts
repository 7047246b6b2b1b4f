import type { Mode } from '@payments/core';
import { ConcurrentUpdateError, type AccountScope, type PaymentAttempt, type PaymentAttemptRepository } from '@payments/core';
import { deepCopy } from './deep-copy';
import { earliestFirst, findInScope, inScope, oldestFirst, type InMemoryStore, type Sequenced } from './in-memory-store';

export class InMemoryPaymentAttemptRepository implements PaymentAttemptRepository {
  constructor(private readonly store: InMemoryStore) {}

  private ofIntent(scope: AccountScope, paymentIntentId: string): Sequenced<PaymentAttempt>[] {
    return [...this.store.tables.attempts.values()]
      .filter((row) => inScope(row.value, scope) && row.value.paymentIntentId === paymentIntentId)
      .sort(oldestFirst);
  }

  insert(attempt: PaymentAttempt): Promise<void> {
    return this.store.atomic(() => {
      // The SQL adapter's unique pending slot: one pending attempt per intent, whoever writes it.
      if (attempt.status === 'pending' && this.ofIntent(attempt, attempt.paymentIntentId).some((row) => row.value.status === 'pending')) {
        throw new ConcurrentUpdateError(`Payment intent ${attempt.paymentIntentId} has a pending attempt already.`, 'pending_attempt_exists');
      }
      this.store.insertRow(this.store.tables.attempts, attempt.id, attempt, 'payment attempt');
    });
  }

  findById(scope: AccountScope, id: string): Promise<PaymentAttempt | undefined> {
    return this.store.atomic(() => findInScope(this.store.tables.attempts, scope, id));
  }

  findByReference(id: string): Promise<PaymentAttempt | undefined> {
    return this.store.atomic(() => {
      const row = this.store.tables.attempts.get(id);
      return row ? deepCopy(row.value) : undefined;
    });
  }

  findPending(scope: AccountScope, paymentIntentId: string): Promise<PaymentAttempt | undefined> {
    return this.store.atomic(() => {
      const row = this.ofIntent(scope, paymentIntentId).find((r) => r.value.status === 'pending');
      return row ? deepCopy(row.value) : undefined;
    });
  }

  findSucceeded(scope: AccountScope, paymentIntentId: string): Promise<PaymentAttempt | undefined> {
    return this.store.atomic(() => {
      const row = this.ofIntent(scope, paymentIntentId).find((r) => r.value.status === 'succeeded' && r.value.duplicateOf === undefined);
      return row ? deepCopy(row.value) : undefined;
    });
  }

  listDuplicates(limit: number): Promise<PaymentAttempt[]> {
    return this.store.atomic(() =>
      [...this.store.tables.attempts.values()]
        .filter(({ value }) => value.duplicateOf !== undefined)
        .sort((a, b) => (b.value.succeededAt?.getTime() ?? 0) - (a.value.succeededAt?.getTime() ?? 0) || b.seq - a.seq)
        .slice(0, limit)
        .map((row) => deepCopy(row.value)),
    );
  }

  listForIntent(scope: AccountScope, paymentIntentId: string): Promise<PaymentAttempt[]> {
    return this.store.atomic(() => this.ofIntent(scope, paymentIntentId).map((row) => deepCopy(row.value)));
  }

  update(attempt: PaymentAttempt): Promise<PaymentAttempt> {
    return this.store.atomic(() => {
      const row = this.store.tables.attempts.get(attempt.id);
      if (!row || !inScope(row.value, attempt) || row.value.version !== attempt.version) {
        throw new ConcurrentUpdateError(`Payment attempt ${attempt.id} was changed by another request; read it again and retry.`);
      }
      const stored = deepCopy({ ...attempt, version: attempt.version + 1 });
      this.store.tables.attempts.set(attempt.id, { seq: row.seq, value: stored });
      return deepCopy(stored);
    });
  }

  findDueForCheck(mode: Mode, now: Date, limit: number): Promise<PaymentAttempt[]> {
    return this.store.atomic(() =>
      [...this.store.tables.attempts.values()]
        .filter(({ value }) => value.mode === mode && value.status === 'pending' && value.nextCheckAt !== undefined && value.nextCheckAt <= now)
        .sort(earliestFirst((value) => value.nextCheckAt))
        .slice(0, limit)
        .map((row) => deepCopy(row.value)),
    );
  }
}
