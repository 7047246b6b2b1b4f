import { exampleCsv, type CsvColumn } from '../http/csv';
import type { JsonSchema } from './json-schema';

/** A success answer that is a CSV file (docs/exports.md): its columns, in the order of the header row. */
export interface CsvAnswer {
  readonly columns: readonly CsvColumn<never>[];
  /** Whether the file starts with a UTF-8 byte order mark (the dashboard's downloads). */
  readonly bom: boolean;
}

/** `content` of a CSV answer: text whose description lists the columns, and an example file of one row. */
export function csvContent(answer: CsvAnswer): JsonSchema {
  const columns = answer.columns.map((column) => `- \`${column.name}\`: ${column.description}`).join('\n');
  return {
    'text/csv': {
      schema: {
        type: 'string',
        description:
          `RFC 4180 CSV in UTF-8 (comma, CRLF, fields quoted when they hold a comma, a quote or a line break)${answer.bom ? ', starting with a byte order mark (EF BB BF) so spreadsheets read Thai right' : ', without a byte order mark'}: ` +
          'one header row, then one row per object, newest first. Amounts are exact decimals in their currency’s digits (never floats) with the integer of minor units beside them; ' +
          'times are ISO 8601 in UTC; an absent value is an empty field; a text cell that begins with =, +, -, @, a tab or a CR is written after a single quote (formula injection). Columns:\n\n' +
          columns,
      },
      example: exampleCsv(answer.columns, answer.bom),
    },
  };
}

/** The header a CSV answer is saved by. */
export const CONTENT_DISPOSITION: JsonSchema = {
  description: '`attachment; filename="<resource>-<mode>-<YYYY-MM-DD>.csv"` (the day of the export, UTC): a browser saves the file under this name.',
  schema: { type: 'string', examples: ['attachment; filename="balance_transactions-test-2026-11-28.csv"'] },
};
