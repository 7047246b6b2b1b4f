import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';
import {
  Clock,
  ListBalanceTransactions,
  ListPaymentIntents,
  ListSettlements,
  PaymentMoneyStatuses,
  SummarizeSettlements,
  type AccountScope,
  type BalanceTransactionFilter,
  type PaymentIntentFilter,
} from '@payments/core';
import type { Config } from '../../config';
import { csvAnswer, csvStream, cursorPages, nextCursor, type CsvColumn, type PageReader } from '../../http/csv';
import { AppConfig } from '../../modules/app-tokens';
import { BALANCE_TRANSACTION_COLUMNS, PAYMENT_INTENT_COLUMNS, SETTLEMENT_COLUMNS, type IntentRecord, type SettlementRecord } from './columns';

/*
 * The three CSV exports (docs/exports.md), the same on /v1 and on the dashboard: each pages through
 * its list's use case with the list's own cursor, a page of PAYMENTS_EXPORT_PAGE_SIZE at a time,
 * and streams the rows as the client takes them. The dashboard's files start with a byte order
 * mark (Excel then reads UTF-8, and so Thai, right); the API's do not.
 */

/** What an export route uses. */
export const EXPORT_USES = {
  listPaymentIntents: ListPaymentIntents,
  moneyStatuses: PaymentMoneyStatuses,
  listSettlements: ListSettlements,
  summarize: SummarizeSettlements,
  listBalanceTransactions: ListBalanceTransactions,
  clock: Clock,
  config: AppConfig,
};

export interface ExportDeps {
  readonly listPaymentIntents: ListPaymentIntents;
  readonly moneyStatuses: PaymentMoneyStatuses;
  readonly listSettlements: ListSettlements;
  readonly summarize: SummarizeSettlements;
  readonly listBalanceTransactions: ListBalanceTransactions;
  readonly clock: Clock;
  readonly config: Config;
}

/** Who reads the file: the API's callers get plain UTF-8, the dashboard's people a byte order mark first. */
export type ExportAudience = 'api' | 'dashboard';

/** `<resource>-<mode>-<YYYY-MM-DD>[-<settlement>].csv`, the day of the export in UTC. */
function filenameOf(deps: ExportDeps, resource: string, scope: AccountScope, suffix?: string): string {
  const day = deps.clock.now().toISOString().slice(0, 10);
  return `${resource}-${scope.mode}-${day}${suffix === undefined ? '' : `-${suffix}`}.csv`;
}

async function answer<R>(
  h: ResponseToolkit,
  audience: ExportAudience,
  columns: readonly CsvColumn<R>[],
  filename: string,
  readPage: PageReader<R>,
): Promise<ResponseObject> {
  const pages = await cursorPages(readPage);
  return csvAnswer(h, csvStream(columns, pages, { bom: audience === 'dashboard' }), filename);
}

/** Every intent of the scope the filter keeps, newest first, with its money statuses. */
export function exportPaymentIntents(
  deps: ExportDeps,
  h: ResponseToolkit,
  audience: ExportAudience,
  scope: AccountScope,
  filter: PaymentIntentFilter,
): Promise<ResponseObject> {
  return answer<IntentRecord>(h, audience, PAYMENT_INTENT_COLUMNS, filenameOf(deps, 'payment_intents', scope), async (startingAfter) => {
    const page = await deps.listPaymentIntents.execute({ scope, filter, page: { limit: deps.config.exportPageSize, startingAfter } });
    const statuses = await deps.moneyStatuses.execute(scope, page.data);
    return { records: page.data.map((intent) => ({ intent, moneyStatuses: statuses.get(intent.id) ?? [] })), next: nextCursor(page) };
  });
}

/** Every settlement of the scope, newest first, with its summary. */
export function exportSettlements(deps: ExportDeps, h: ResponseToolkit, audience: ExportAudience, scope: AccountScope): Promise<ResponseObject> {
  return answer<SettlementRecord>(h, audience, SETTLEMENT_COLUMNS, filenameOf(deps, 'settlements', scope), async (startingAfter) => {
    const page = await deps.listSettlements.execute({ scope, page: { limit: deps.config.exportPageSize, startingAfter } });
    const summaries = await deps.summarize.execute(page.data);
    const records = page.data.map((settlement) => {
      const summary = summaries.get(settlement.id);
      if (!summary) throw new Error(`No summary of ${settlement.id}.`);
      return { settlement, summary };
    });
    return { records, next: nextCursor(page) };
  });
}

/** Every line of the scope the filter keeps, newest first. */
export function exportBalanceTransactions(
  deps: ExportDeps,
  h: ResponseToolkit,
  audience: ExportAudience,
  scope: AccountScope,
  filter: BalanceTransactionFilter,
): Promise<ResponseObject> {
  const filename = filenameOf(deps, 'balance_transactions', scope, filter.settlementId);
  return answer(h, audience, BALANCE_TRANSACTION_COLUMNS, filename, async (startingAfter) => {
    const page = await deps.listBalanceTransactions.execute({ scope, filter, page: { limit: deps.config.exportPageSize, startingAfter } });
    return { records: page.data, next: nextCursor(page) };
  });
}
