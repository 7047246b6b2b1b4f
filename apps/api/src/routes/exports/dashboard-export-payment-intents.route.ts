import { defineRoute } from '../../http/define-route';
import { scopeIn } from '../../plugins/dashboard/actor';
import { dashboardPaymentIntentFilter, dashboardPaymentIntentFilterFields } from '../payments/payment-intent-query';
import { withMode } from '../schemas';
import { PAYMENT_INTENT_COLUMNS } from './columns';
import { EXPORT_USES, exportPaymentIntents } from './exports';

/** *mode*: the payments list's intents, every page, as a CSV download, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/exports/payment_intents.csv',
  access: 'dashboard',
  action: 'payments.read',
  validate: { query: withMode(dashboardPaymentIntentFilterFields) },
  openapi: {
    operationId: 'exportPaymentIntents',
    summary: 'Download payment intents as a CSV file',
    description:
      'Every intent the filters of `GET /dashboard/v1/payment_intents` keep (`status`, `created_gte`, `created_lte`, `q`, `amount`, `currency`, `money_status`), newest first, ' +
      'as one file (no `limit` or `starting_after`). The file starts with a UTF-8 byte order mark. Columns and rules: docs/exports.md.',
    tag: 'Exports',
    success: {
      status: 200,
      csv: { columns: PAYMENT_INTENT_COLUMNS, bom: true },
      description: 'The intents as CSV, saved as `payment_intents-<mode>-<day>.csv`.',
    },
  },
  uses: EXPORT_USES,
  handler: (deps) => (request, h) => {
    const { query } = request;
    return exportPaymentIntents(deps, h, 'dashboard', scopeIn(request, query.mode), dashboardPaymentIntentFilter(query));
  },
});
