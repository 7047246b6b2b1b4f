import { defineRoute } from '../../http/define-route';
import { objectSchema } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { SETTLEMENT_COLUMNS } from './columns';
import { EXPORT_USES, exportSettlements } from './exports';

export default defineRoute({
  method: 'GET',
  path: '/v1/exports/settlements.csv',
  access: 'api-key',
  permission: 'settlements:read',
  validate: { query: objectSchema({}) },
  openapi: {
    operationId: 'exportSettlements',
    summary: 'Export settlements as a CSV file',
    description:
      'Every settlement of the key’s merchant and mode, newest first (as `GET /v1/settlements`, which has no filters), one row each with its summary by line type, ' +
      'as one CSV file streamed as it is read. Any query parameter is 400 `invalid_parameter` naming it, as JSON, before any byte of the file. Columns and rules: docs/exports.md.',
    tag: 'Exports',
    success: { status: 200, csv: { columns: SETTLEMENT_COLUMNS, bom: false }, description: 'The settlements as CSV, saved as `settlements-<mode>-<day>.csv`.' },
  },
  uses: EXPORT_USES,
  handler: (deps) => (request, h) => exportSettlements(deps, h, 'api', scopeOf(request)),
});
