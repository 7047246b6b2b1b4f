import {
  balanceTransactionOf,
  matchesBalanceTransactionFilter,
  type AccountScope,
  type BalanceTransactionFilter,
  type BalanceTransactionReader,
  type JournalPageRequest,
  type JournalRecord,
  type LedgerTransaction,
  type Page,
} from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

/**
 * The journal as balance transactions: a transaction's sequence is its place in the journal
 * (append-only, so it never changes), and the filter is core's rule applied to each line. The
 * in-memory ledger keeps no settlement coverage, so its lines name no settlement.
 */
export class InMemoryBalanceTransactionReader implements BalanceTransactionReader {
  constructor(private readonly store: InMemoryStore) {}

  list(scope: AccountScope, filter: BalanceTransactionFilter, page: JournalPageRequest): Promise<Page<JournalRecord>> {
    return this.store.atomic(() => {
      const matching = this.records(scope)
        .filter((record) => page.beforeSeq === undefined || record.seq < page.beforeSeq)
        .filter((record) => {
          const line = balanceTransactionOf(scope, record);
          return line !== undefined && matchesBalanceTransactionFilter(line, filter);
        })
        .reverse();
      return { data: matching.slice(0, page.limit).map(deepCopy), hasMore: matching.length > page.limit };
    });
  }

  find(scope: AccountScope, seq: number): Promise<JournalRecord | undefined> {
    return this.store.atomic(() => {
      const record = this.records(scope).find((one) => one.seq === seq);
      return record && balanceTransactionOf(scope, record) ? deepCopy(record) : undefined;
    });
  }

  /** The scope's transactions as records, oldest first. */
  private records(scope: AccountScope): JournalRecord[] {
    const { intents, refunds } = this.store.tables;
    return [...this.store.tables.ledgerTransactions.values()]
      .map((tx, index): [LedgerTransaction, number] => [tx, index + 1])
      .filter(([tx]) => tx.merchantId === scope.merchantId && tx.mode === scope.mode)
      .map(([tx, seq]) => {
        const intent = tx.paymentIntentId === undefined ? undefined : intents.get(tx.paymentIntentId)?.value;
        const refund = tx.causeType === 'refund' || tx.causeType === 'refund_failed' ? refunds.get(tx.causeId)?.value : undefined;
        const rate = intent?.fx?.rate;
        return {
          seq,
          causeType: tx.causeType,
          causeId: tx.causeId,
          ...(tx.paymentIntentId === undefined ? {} : { paymentIntentId: tx.paymentIntentId }),
          created: tx.created,
          entries: tx.entries,
          ...(intent === undefined
            ? {}
            : {
                payment: {
                  amount: intent.amount,
                  currency: intent.currency,
                  ...(rate === undefined ? {} : { rate }),
                  ...(intent.releasedAt === undefined ? {} : { releasedAt: intent.releasedAt }),
                  ...(intent.availableAt === undefined ? {} : { availableAt: intent.availableAt }),
                },
              }),
          ...(refund === undefined ? {} : { refund: { amount: refund.amount, currency: refund.currency } }),
        };
      });
  }
}
