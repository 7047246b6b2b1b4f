import { defineRoute } from '../../http/define-route';
import { scopeIn } from '../../plugins/dashboard/actor';
import { modeQuery } from '../schemas';
import { SETTLEMENT_COLUMNS } from './columns';
import { EXPORT_USES, exportSettlements } from './exports';

/** *mode*: the account's settlements, every page, as a CSV download, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/exports/settlements.csv',
  access: 'dashboard',
  action: 'settlements.read',
  validate: { query: modeQuery },
  openapi: {
    operationId: 'exportSettlements',
    summary: 'Download settlements as a CSV file',
    description:
      'Every settlement of the mode, newest first, one row each with its summary by line type. The file starts with a UTF-8 byte order mark. Columns and rules: docs/exports.md.',
    tag: 'Exports',
    success: { status: 200, csv: { columns: SETTLEMENT_COLUMNS, bom: true }, description: 'The settlements as CSV, saved as `settlements-<mode>-<day>.csv`.' },
  },
  uses: EXPORT_USES,
  handler: (deps) => (request, h) => exportSettlements(deps, h, 'dashboard', scopeIn(request, request.query.mode)),
});
