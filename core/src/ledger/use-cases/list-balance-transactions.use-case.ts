import type { AccountScope, Page, PageRequest } from '../../common';
import { CoreError, invalidParameter } from '../../common';
import { balanceTransactionOf, balanceTransactionSeq, type BalanceTransaction, type BalanceTransactionFilter } from '../domain/balance-transaction';
import type { BalanceTransactionReader } from '../ports/balance-transaction-reader.port';
export interface ListBalanceTransactionsDeps {
  readonly balanceTransactions: BalanceTransactionReader;
}

/**
 * `GET /v1/balance_transactions`: the scope's lines, newest first, a page at a time. A
 * `starting_after` that is not a line of this merchant and mode is 400 `invalid_parameter`, as on
 * every list.
 */
export class ListBalanceTransactions {
  constructor(private readonly deps: ListBalanceTransactionsDeps) {}

  async execute(input: { scope: AccountScope; filter: BalanceTransactionFilter; page: PageRequest }): Promise<Page<BalanceTransaction>> {
    const { scope, page } = input;
    let beforeSeq: number | undefined;
    if (page.startingAfter !== undefined) {
      const seq = balanceTransactionSeq(page.startingAfter);
      if (seq === undefined || (await this.deps.balanceTransactions.find(scope, seq)) === undefined) {
        throw invalidParameter('starting_after', `starting_after names no balance_transaction of this account: '${page.startingAfter}'.`);
      }
      beforeSeq = seq;
    }
    const records = await this.deps.balanceTransactions.list(scope, input.filter, { limit: page.limit, ...(beforeSeq === undefined ? {} : { beforeSeq }) });
    const data: BalanceTransaction[] = [];
    for (const record of records.data) {
      const line = balanceTransactionOf(scope, record);
      // The reader answers only transactions with merchant legs; one without is a broken adapter.
      if (line === undefined)
        throw new CoreError('api_error', 'internal', `The balance transaction reader answered txn_${record.seq}, which moves none of the merchant's money.`);
      data.push(line);
    }
    return { data, hasMore: records.hasMore };
  }
}
