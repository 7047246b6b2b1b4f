import { pipeline, Readable } from 'node:stream';
import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';
import { CoreError } from '@payments/core';
import { stringify } from 'csv-stringify';

/*
 * CSV files streamed out of cursor pages (docs/exports.md): one header row of stable snake_case
 * names, then one record per object, RFC 4180 (comma, CRLF, a field quoted when it holds a comma,
 * a quote, CR or LF). The pages are read one after another as the client takes the bytes, so a
 * file of any size holds one page in memory.
 */

/** A cell: text, a number, or nothing (an empty field). */
export type CsvValue = string | number | bigint | undefined;

/** One column of a file: its name in the header row, what it holds, an example value, and how a record's cell is read. */
export interface CsvColumn<R> {
  readonly name: string;
  /** What the column holds and in which format, for docs/exports.md and the OpenAPI documents. */
  readonly description: string;
  /** Its value in the documented example file. */
  readonly example: string;
  /**
   * A number (an integer or an exact decimal such as `-1.50`): written as it is. Every other cell
   * is text, guarded against formula injection.
   */
  readonly numeric?: boolean;
  readonly value: (record: R) => CsvValue;
}

/** What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A text cell a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a CR) is
 * prefixed with a single quote, so the program shows it as text; any other text goes as it is.
 */
export function guardedText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell as the file holds it: numbers as their digits (never guarded), text guarded, nothing as empty. */
function cellOf<R>(column: CsvColumn<R>, record: R): string {
  const value = column.value(record);
  if (value === undefined) return '';
  const text = String(value);
  if (!column.numeric) return guardedText(text);
  // A numeric column holds digits only; anything else there is a bug, never sent unguarded.
  if (!NUMBER.test(text))
    throw new CoreError('api_error', 'internal', `The CSV column ${column.name} is numeric, but a record gave it a value that is not a number.`);
  return text;
}

/** The header and row of `columns`' examples, with the byte order mark when the file has one: the file the OpenAPI documents show. */
export function exampleCsv(columns: readonly CsvColumn<never>[], bom = false): string {
  const cells = columns.map((column) => (/[",\r\n]/.test(column.example) ? `"${column.example.replace(/"/g, '""')}"` : column.example));
  return `${bom ? '\uFEFF' : ''}${columns.map((column) => column.name).join(',')}\r\n${cells.join(',')}\r\n`;
}

const RECORDS_BUFFERED = 16;
const TEXT_BUFFERED_BYTES = 16 * 1024;

/**
 * Pages of records as the lines of a CSV file, one page read only when the client has taken what
 * came before (backpressure); a failure after the first byte ends the stream with that error, so
 * the answer is cut short rather than ending as if it were whole.
 */
export function csvStream<R>(columns: readonly CsvColumn<R>[], pages: AsyncIterable<readonly R[]>, options: { readonly bom: boolean }): Readable {
  async function* records(): AsyncGenerator<string[]> {
    for await (const page of pages) for (const record of page) yield columns.map((column) => cellOf(column, record));
  }
  const stringifier = stringify({
    header: true,
    columns: columns.map((column) => column.name),
    bom: options.bom,
    record_delimiter: 'windows',
    // csv-stringify quotes a CR or LF only when it is the record delimiter; a lone one must be quoted too.
    quoted_match: /[\r\n]/,
    // What may wait between the database and the client, set here rather than left to Node's
    // defaults (16 KiB before Node 22, 64 KiB after): 16 records in, 16 KiB of text out.
    writableHighWaterMark: RECORDS_BUFFERED,
    readableHighWaterMark: TEXT_BUFFERED_BYTES,
  });
  // The stringifier is what the answer sends: an error anywhere destroys it (and with it the answer),
  // and a client that goes away destroys it, which stops the pages.
  return pipeline(Readable.from(records(), { highWaterMark: RECORDS_BUFFERED }), stringifier, () => undefined);
}

/** Reads the page after the cursor (the first page without one): its records and the next page's cursor, if any. */
export type PageReader<R> = (startingAfter: string | undefined) => Promise<{ readonly records: readonly R[]; readonly next: string | undefined }>;

/**
 * Reads pages through `readPage` (given the cursor, the page's records and the cursor of the next
 * page, if any). The first page is read at once, so an error there (the database, a filter) is
 * the usual JSON error answer before any byte of the file is sent; the others as the file is taken.
 */
export async function cursorPages<R>(readPage: PageReader<R>): Promise<AsyncIterable<readonly R[]>> {
  const first = await readPage(undefined);
  return (async function* () {
    let page = first;
    yield page.records;
    while (page.next !== undefined) {
      page = await readPage(page.next);
      yield page.records;
    }
  })();
}

/** The cursor of the page after `data`, when there is one. */
export function nextCursor(page: { readonly data: readonly { readonly id: string }[]; readonly hasMore: boolean }): string | undefined {
  return page.hasMore ? page.data.at(-1)?.id : undefined;
}

/** A CSV download: `text/csv; charset=utf-8`, saved under `filename` (letters, digits, `_`, `-` and `.` only). */
export function csvAnswer(h: ResponseToolkit, stream: Readable, filename: string): ResponseObject {
  if (!/^[A-Za-z0-9_.-]+$/.test(filename)) throw new Error(`Not a plain file name: ${filename}`);
  return h.response(stream).type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`);
}
