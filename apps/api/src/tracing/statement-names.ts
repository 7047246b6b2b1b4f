/** What a statement span says of its SQL: the operation and the table, never the text's values. */
export interface StatementName {
  readonly operation: string;
  readonly table?: string;
}

const OPERATION = /^\s*\(?\s*([a-z]+)/i;
/** Where each operation names its table. */
const TABLE_AFTER = new Map<string, RegExp>([
  ['INSERT', /\binto\s+[`"]?(\w+)/i],
  ['UPDATE', /^\s*update\s+[`"]?(\w+)/i],
  ['DELETE', /\bfrom\s+[`"]?(\w+)/i],
  ['SELECT', /\bfrom\s+[`"]?(\w+)/i],
]);

const names = new Map<string, StatementName>();
const MAX_REMEMBERED = 2000;

/**
 * `SELECT payment_intents`, `INSERT events`, `BEGIN`: the first keyword of the SQL text and the
 * table it names first (for a SELECT, the first FROM). Remembered per SQL text, as the driver's
 * prepared statements are; the set of texts is the code's, so it stays small.
 */
export function statementName(sql: string): StatementName {
  const known = names.get(sql);
  if (known) return known;
  const operation = (OPERATION.exec(sql)?.[1] ?? 'SQL').toUpperCase();
  const table = TABLE_AFTER.get(operation)?.exec(sql)?.[1];
  const name: StatementName = table === undefined ? { operation } : { operation, table };
  if (names.size < MAX_REMEMBERED) names.set(sql, name);
  return name;
}

/** The span's name: `SELECT payment_intents`, or the operation alone. */
export function statementSpanName(name: StatementName): string {
  return name.table === undefined ? name.operation : `${name.operation} ${name.table}`;
}
