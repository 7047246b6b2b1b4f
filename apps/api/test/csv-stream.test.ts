import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { parse } from 'csv-parse/sync';
import { csvStream, cursorPages, exampleCsv, guardedText, type CsvColumn } from '../src/http/csv';

/*
 * The streaming of CSV exports (apps/api/src/http/csv.ts) on its own: pages are read only as the
 * reader takes the bytes, a reader that goes away stops the reading, a failure after the first
 * byte ends the stream with it, and cells are written by RFC 4180 with the formula guard.
 */

interface Item {
  readonly id: string;
  readonly text: string;
  readonly amount: string;
}

const COLUMNS: readonly CsvColumn<Item>[] = [
  { name: 'id', description: 'id', example: 'i_1', value: (item) => item.id },
  { name: 'text', description: 'text', example: 'a, "b"', value: (item) => item.text },
  { name: 'amount', description: 'amount', example: '-1.50', numeric: true, value: (item) => item.amount },
];

/** Pages of `size` items without end (or `pages` of them), counting the pages read and whether the reading was closed. */
function endless(size: number, pages = Infinity) {
  const state = { read: 0, closed: false };
  const reader = async (after: string | undefined) => {
    state.read += 1;
    const start = after === undefined ? 0 : Number(after.slice(2)) + 1;
    const records = Array.from({ length: size }, (_, index) => ({ id: `i_${start + index}`, text: `row ${start + index}`, amount: String(start + index) }));
    return { records, next: state.read < pages ? records.at(-1)?.id : undefined };
  };
  return { state, reader };
}

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

test('every page in order, one header row, CRLF; a byte order mark only when asked', async (t) => {
  const { reader } = endless(3, 4);
  const file = await text(csvStream(COLUMNS, await cursorPages(reader), { bom: false }));
  const rows: string[][] = parse(file);
  t.deepEqual(rows[0], ['id', 'text', 'amount']);
  t.deepEqual(
    rows.slice(1).map((row) => row[0]),
    Array.from({ length: 12 }, (_, index) => `i_${index}`),
  );
  t.true(file.startsWith('id,text,amount\r\ni_0,row 0,0\r\n'));
  const { reader: again } = endless(1, 1);
  t.true((await text(csvStream(COLUMNS, await cursorPages(again), { bom: true }))).startsWith('\uFEFFid,text,amount\r\n'));
});

test('pages are read as the bytes are taken: an unread stream holds a few pages, and a reader that leaves stops the reading', async (t) => {
  const { state, reader } = endless(10);
  const stream = csvStream(COLUMNS, await cursorPages(reader), { bom: false });
  await sleep(100);
  const ahead = state.read;
  await sleep(100);
  t.is(state.read, ahead, 'the reading waits for the reader');
  // What the streams buffer between them: csv-stringify's 16 KiB of text and 16 records each side (a page here is 10 rows of ~15 bytes).
  t.true(ahead < 200, `${ahead} pages read ahead of a reader that took nothing`);
  let taken = 0;
  for await (const chunk of stream) {
    taken += String(chunk).length;
    if (taken > 200_000) break;
  }
  await sleep(20);
  const read = state.read;
  t.true(read > 100, 'the pages came as they were taken');
  await sleep(100);
  t.is(state.read, read, 'none after the reader left');
  t.true(stream.destroyed);
});

test('a failure after the first page ends the stream with that error', async (t) => {
  let calls = 0;
  const pages = await cursorPages<Item>(async (after) => {
    calls += 1;
    if (after !== undefined) throw new Error('the database went away');
    return { records: [{ id: 'i_0', text: 'x', amount: '1' }], next: 'i_0' };
  });
  await t.throwsAsync(text(csvStream(COLUMNS, pages, { bom: false })), { message: 'the database went away' });
  t.is(calls, 2);
});

test('the first page is read before the stream exists, so its failure is the caller’s to answer', async (t) => {
  await t.throwsAsync(
    cursorPages(async () => {
      throw new Error('refused');
    }),
    { message: 'refused' },
  );
});

test('cells: RFC 4180 quoting, a formula guarded, numbers never; a numeric column holds numbers only', async (t) => {
  const items: Item[] = [
    { id: 'i_1', text: '=1+2', amount: '-1.50' },
    { id: 'i_2', text: 'line\nbreak, "quoted"', amount: '0' },
    { id: 'i_3', text: '\tTAB', amount: '12345678901234567890.12' },
    { id: 'i_4', text: 'a=b', amount: '7' },
  ];
  const file = await text(csvStream(COLUMNS, await cursorPages(async () => ({ records: items, next: undefined })), { bom: false }));
  t.is(file, 'id,text,amount\r\n' + "i_1,'=1+2,-1.50\r\n" + 'i_2,"line\nbreak, ""quoted""",0\r\n' + "i_3,'\tTAB,12345678901234567890.12\r\n" + 'i_4,a=b,7\r\n');
  for (const start of ['=', '+', '-', '@', '\t', '\r']) t.is(guardedText(`${start}x`), `'${start}x`);
  t.is(guardedText('x=1'), 'x=1');
  const bad = csvStream(COLUMNS, await cursorPages(async () => ({ records: [{ id: 'i', text: '', amount: '=1' }], next: undefined })), { bom: false });
  await t.throwsAsync(text(bad), { message: /numeric/ });
  t.is(exampleCsv(COLUMNS), 'id,text,amount\r\ni_1,"a, ""b""",-1.50\r\n');
});
