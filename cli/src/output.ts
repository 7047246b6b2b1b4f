import { randomUUID } from 'node:crypto';
import { stringifyExactJson } from '@payments/sdk';

/**
 * Data goes to stdout (one JSON document with --json, a table otherwise); everything else
 * (progress, hints, errors) to stderr, so `payments … --json | jq` always gets clean JSON. A
 * balance past 2^53 − 1 (a BigInt from the SDK) is written as its exact integer.
 */
export class Output {
  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WriteStream | NodeJS.WritableStream = process.stderr,
  ) {}

  /** The command's result: `value` as JSON, or what `human` renders of it. */
  data(value: unknown, human: () => string): void {
    this.stdout.write(this.json ? `${stringifyExactJson(value, randomUUID, 2)}\n` : ensureNewline(human()));
  }

  /** Text exactly as given (a CSV export), whatever --json says: nothing is added or converted. */
  raw(text: string): void {
    this.stdout.write(text);
  }

  /** One line of a stream (listen): compact JSON lines with --json. */
  line(value: unknown, human: string): void {
    this.stdout.write(this.json ? `${stringifyExactJson(value, randomUUID)}\n` : `${human}\n`);
  }

  log(message: string): void {
    this.stderr.write(`${message}\n`);
  }

  get stderrIsTTY(): boolean {
    return 'isTTY' in this.stderr && this.stderr.isTTY;
  }

  /** A progress line that rewrites itself; only on a terminal, so logs and CI output stay clean. */
  progress(message: string): void {
    if (this.stderrIsTTY) this.stderr.write(`\r\x1b[2K${message}`);
  }

  endProgress(): void {
    if (this.stderrIsTTY) this.stderr.write('\r\x1b[2K');
  }
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** A plain table: a header row and left-aligned columns, two spaces apart. */
/** One table cell: absent values print empty. */
export type Cell = string | number | boolean | undefined | null;

export function table(headers: string[], rows: Cell[][]): string {
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell === undefined || cell === null ? '' : String(cell))))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : (cell ?? '').padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One object as two columns, field and value; nested values as compact JSON. */
export function keyValues(object: object): string {
  return table(
    ['FIELD', 'VALUE'],
    Object.entries(object).map(([key, value]) => [key, typeof value === 'object' && value !== null ? stringifyExactJson(value, randomUUID) : String(value)]),
  );
}

/** `12345 THB` style (minor units, as the API speaks). */
export function money(value: { amount: number; currency: string } | undefined): string {
  return value ? `${value.amount} ${value.currency}` : '';
}
