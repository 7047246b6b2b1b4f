import { defineRoute } from '../../http/define-route';
import { objectSchema } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { paymentIntentFilter, paymentIntentFilterFields } from '../payments/payment-intent-query';
import { PAYMENT_INTENT_COLUMNS } from './columns';
import { EXPORT_USES, exportPaymentIntents } from './exports';

export default defineRoute({
  method: 'GET',
  path: '/v1/exports/payment_intents.csv',
  access: 'api-key',
  permission: 'payment_intents:read',
  validate: { query: objectSchema(paymentIntentFilterFields) },
  openapi: {
    operationId: 'exportPaymentIntents',
    summary: 'Export payment intents as a CSV file',
    description:
      'Every intent of the key’s merchant and mode that the filters keep (those of `GET /v1/payment_intents`, which combine), newest first, as one CSV file streamed ' +
      'as it is read: no `limit` or `starting_after`, whatever the number of intents. Any other query parameter is 400 `invalid_parameter` naming it, as JSON, before any ' +
      'byte of the file. Columns and rules: docs/exports.md.',
    tag: 'Exports',
    success: {
      status: 200,
      csv: { columns: PAYMENT_INTENT_COLUMNS, bom: false },
      description: 'The intents as CSV, saved as `payment_intents-<mode>-<day>.csv`.',
    },
  },
  uses: EXPORT_USES,
  handler: (deps) => (request, h) => exportPaymentIntents(deps, h, 'api', scopeOf(request), paymentIntentFilter(request.query)),
});
