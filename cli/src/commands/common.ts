import type { List, ListPromise } from '@payments/sdk';
import type { Context, OptionSpec } from '../command.js';
import { keyValues, table, type Cell } from '../output.js';
import { optionalInteger, optionalString } from '../values.js';

/** Paging options of every list command. */
export const LIST_OPTIONS: Record<string, OptionSpec> = {
  limit: { type: 'string', description: 'Items per page, 1 to 100 (default 20).', valueName: 'n' },
  'starting-after': { type: 'string', description: 'Id of the last item of the previous page.', valueName: 'id' },
  all: { type: 'boolean', description: 'Every page: follows has_more to the end (--limit is then the page size).' },
};

export const IDEMPOTENCY_OPTION: Record<string, OptionSpec> = {
  'idempotency-key': {
    type: 'string',
    description: 'Idempotency-Key to send (one is generated otherwise; a retry with the same key replays the answer).',
    valueName: 'key',
  },
};

export function listParams(context: Context): { limit?: number; starting_after?: string } {
  const limit = optionalInteger(context.values, 'limit', 1);
  const startingAfter = optionalString(context.values, 'starting-after');
  return { ...(limit === undefined ? {} : { limit }), ...(startingAfter === undefined ? {} : { starting_after: startingAfter }) };
}

/** `{[name]: value}` when the option was given (not empty), else nothing: spread into a list's params. */
export function given<K extends string, V>(name: K, value: V | undefined): Partial<Record<K, V>> {
  const params: Partial<Record<K, V>> = {};
  if (value !== undefined && value !== '') params[name] = value;
  return params;
}

export function requestOptions(context: Context): { idempotencyKey?: string } {
  const key = optionalString(context.values, 'idempotency-key');
  return key === undefined ? {} : { idempotencyKey: key };
}

/**
 * A list: the API's envelope with --json, a table otherwise (with a paging hint on stderr). With
 * --all, every page, fetched one after another while `has_more`, printed as one list.
 */
export async function printList<T extends { id: string }>(
  context: Context,
  list: ListPromise<T> | Promise<List<T>>,
  headers: string[],
  row: (item: T) => Cell[],
): Promise<void> {
  const page = context.values.all && Symbol.asyncIterator in list ? await everyPage(list) : await list;
  context.out.data(page, () => (page.data.length === 0 ? '(none)' : table(headers, page.data.map(row))));
  const last = page.data[page.data.length - 1];
  if (page.has_more && last && !context.out.json) context.out.log(`More: add --starting-after ${last.id} (or --all)`);
}

async function everyPage<T>(items: AsyncIterable<T>): Promise<List<T>> {
  const data: T[] = [];
  for await (const item of items) data.push(item);
  return { object: 'list', data, has_more: false };
}

/** One object: the API's object with --json, field/value rows otherwise. */
export function printObject(context: Context, object: object): void {
  context.out.data(object, () => keyValues(object));
}
