import type { AccountScope, Page } from '../../common';
import { token } from '../../common';
import type { BalanceTransactionFilter, JournalRecord } from '../domain/balance-transaction';

/** A page of lines: newest first, those before the journal sequence `beforeSeq` when it is given. */
export interface JournalPageRequest {
  readonly limit: number;
  readonly beforeSeq?: number;
}

/**
 * Reads the journal as balance transactions (docs/balance-transactions.md): the records of the
 * transactions that have at least one entry on the scope's merchant accounts, each with all its
 * entries and what its line needs of the payment and refund it concerns. The filter is the rule of
 * `matchesBalanceTransactionFilter` applied to the line `balanceTransactionOf` makes of a record,
 * kept by the storage itself (an adapter that filtered after reading could not page).
 */
export interface BalanceTransactionReader {
  /** The scope's records that pass `filter`, newest first (by sequence), at most `page.limit`. */
  list(scope: AccountScope, filter: BalanceTransactionFilter, page: JournalPageRequest): Promise<Page<JournalRecord>>;
  /** The record of the transaction `seq`, when it is a line of the scope (undefined otherwise, whoever's it is). */
  find(scope: AccountScope, seq: number): Promise<JournalRecord | undefined>;
}
export const BalanceTransactionReader = token<BalanceTransactionReader>('BalanceTransactionReader');
