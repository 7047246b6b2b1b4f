import { invalidParameter, type Mode, type Page, type PageRequest } from '@payments/core';
import { deepCopy } from './deep-copy';
import type { Sequenced } from './in-memory-store';

interface Scoped {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: string;
}

/**
 * Newest first after the cursor, the SQL adapter's rule: the cursor is looked up among the scope's
 * rows (not only those the filter keeps), and naming none of them is 400 on `starting_after`. A
 * scope without a mode takes the merchant's rows of both modes.
 */
export function pageNewestFirst<T extends Scoped>(
  rows: Iterable<Sequenced<T>>,
  scope: { readonly merchantId: string; readonly mode?: Mode },
  page: PageRequest,
  what: string,
  keep: (value: T) => boolean = () => true,
): Page<T> {
  const scoped = [...rows].filter((row) => row.value.merchantId === scope.merchantId && (scope.mode === undefined || row.value.mode === scope.mode));
  let before = Number.POSITIVE_INFINITY;
  if (page.startingAfter !== undefined) {
    const cursor = scoped.find((row) => row.value.id === page.startingAfter);
    if (!cursor) throw invalidParameter('starting_after', `starting_after names no ${what} of this account: '${page.startingAfter}'.`);
    before = cursor.seq;
  }
  const matching = scoped.filter((row) => row.seq < before && keep(row.value)).sort((a, b) => b.seq - a.seq);
  return { data: matching.slice(0, page.limit).map((row) => deepCopy(row.value)), hasMore: matching.length > page.limit };
}
