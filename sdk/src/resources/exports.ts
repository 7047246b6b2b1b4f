import type { ApiResponse } from '../http/request-sender.js';
import type { BalanceTransactionExportParams, CsvFile, PaymentIntentExportParams, RequestOptions, SettlementExportParams } from '../types.js';
import { Resource } from './resource.js';

/**
 * `/v1/exports/…csv`: everything a list's filters keep, as one CSV file (docs/exports.md). The
 * service pages through the list itself and streams the file; the answer resolves once it is whole.
 *
 * ```ts
 * const { filename, text } = await payments.exports.balanceTransactions({ settlement: 'st_…' });
 * ```
 */
export class Exports extends Resource {
  /** Payment intents, newest first: the filters of `paymentIntents.list`. */
  paymentIntents(params: PaymentIntentExportParams = {}, options?: RequestOptions): Promise<ApiResponse<CsvFile>> {
    return this.request({ method: 'GET', path: 'v1/exports/payment_intents.csv', query: { ...params }, format: 'csv', ...(options ? { options } : {}) });
  }

  /** Every settlement, newest first, each with its summary by line type. */
  settlements(params: SettlementExportParams = {}, options?: RequestOptions): Promise<ApiResponse<CsvFile>> {
    return this.request({ method: 'GET', path: 'v1/exports/settlements.csv', query: { ...params }, format: 'csv', ...(options ? { options } : {}) });
  }

  /** Balance transactions, newest first: the filters of `balanceTransactions.list` (`settlement: 'st_…'`: the lines a settlement pays). */
  balanceTransactions(params: BalanceTransactionExportParams = {}, options?: RequestOptions): Promise<ApiResponse<CsvFile>> {
    return this.request({ method: 'GET', path: 'v1/exports/balance_transactions.csv', query: { ...params }, format: 'csv', ...(options ? { options } : {}) });
  }
}
