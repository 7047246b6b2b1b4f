import type { Capability } from './capability';
import exportPaymentIntents from '../routes/exports/export-payment-intents.route';
import exportSettlements from '../routes/exports/export-settlements.route';
import exportBalanceTransactions from '../routes/exports/export-balance-transactions.route';
import dashboardExportPaymentIntents from '../routes/exports/dashboard-export-payment-intents.route';
import dashboardExportSettlements from '../routes/exports/dashboard-export-settlements.route';
import dashboardExportBalanceTransactions from '../routes/exports/dashboard-export-balance-transactions.route';

/**
 * CSV exports of payment intents, settlements and balance transactions (docs/exports.md): the
 * lists' use cases, read page by page and streamed; nothing of their own to bind.
 */
export const exportsModule: Capability = {
  routes: [
    exportPaymentIntents,
    exportSettlements,
    exportBalanceTransactions,
    dashboardExportPaymentIntents,
    dashboardExportSettlements,
    dashboardExportBalanceTransactions,
  ],
};
