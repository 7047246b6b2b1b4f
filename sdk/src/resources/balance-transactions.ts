import type { ApiResponse } from '../http/request-sender.js';
import { listPromise, type ListPromise } from '../pagination.js';
import type { BalanceTransaction, BalanceTransactionListParams, RequestOptions } from '../types.js';
import { Resource, segment } from './resource.js';

/** `/v1/balance_transactions`: every movement of the merchant's money, one line per ledger transaction. */
export class BalanceTransactions extends Resource {
  /** Newest first. Await it for one page, or `for await` over every line the filters keep. */
  list(params: BalanceTransactionListParams = {}, options?: RequestOptions): ListPromise<BalanceTransaction> {
    return listPromise(params, (startingAfter) =>
      this.request({ method: 'GET', path: 'v1/balance_transactions', query: { ...params, starting_after: startingAfter }, ...(options ? { options } : {}) }),
    );
  }

  retrieve(id: string, options?: RequestOptions): Promise<ApiResponse<BalanceTransaction>> {
    return this.request({ method: 'GET', path: `v1/balance_transactions/${segment(id)}`, ...(options ? { options } : {}) });
  }
}
