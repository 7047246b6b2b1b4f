import type { AccountScope } from '../../common';
import { notFound } from '../../common';
import { balanceTransactionOf, balanceTransactionSeq, type BalanceTransaction } from '../domain/balance-transaction';
import type { BalanceTransactionReader } from '../ports/balance-transaction-reader.port';
export interface GetBalanceTransactionDeps {
  readonly balanceTransactions: BalanceTransactionReader;
}

export class GetBalanceTransaction {
  constructor(private readonly deps: GetBalanceTransactionDeps) {}

  /** Throws 404 `resource_not_found` for an unknown id or one of another merchant or mode. */
  async execute(input: { scope: AccountScope; id: string }): Promise<BalanceTransaction> {
    const seq = balanceTransactionSeq(input.id);
    const record = seq === undefined ? undefined : await this.deps.balanceTransactions.find(input.scope, seq);
    const line = record && balanceTransactionOf(input.scope, record);
    if (!line) throw notFound('balance_transaction', input.id);
    return line;
  }
}
