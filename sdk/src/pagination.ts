import type { ApiResponse } from './http/request-sender.js';
import type { List, ListParams } from './types.js';

/** Fetches one page of a list after `starting_after` (undefined for the first page). */
export type PageFetcher<T> = (startingAfter: string | undefined) => Promise<ApiResponse<List<T>>>;

/**
 * What a `list` method returns: awaitable for one page (`await payments.paymentIntents.list()`),
 * and async-iterable over every item of every page (`for await (const pi of payments.paymentIntents.list())`),
 * fetching the next page only when the loop reaches it.
 */
export interface ListPromise<T> extends Promise<ApiResponse<List<T>>>, AsyncIterable<T> {
  /** Every item across pages, stopping after `limit` items (required: a list can be long). */
  autoPagingToArray(options: { limit: number }): Promise<T[]>;
  /** Calls `onItem` for every item across pages; return `false` from it to stop. */
  autoPagingEach(onItem: (item: T) => boolean | void | Promise<boolean | void>): Promise<void>;
}

/** The largest number of items `autoPagingToArray` collects, so a mistake cannot exhaust memory. */
export const MAX_AUTO_PAGING_TO_ARRAY = 10_000;

export function listPromise<T extends { id: string }>(params: ListParams | undefined, fetchPage: PageFetcher<T>): ListPromise<T> {
  let first: Promise<ApiResponse<List<T>>> | undefined;
  // The first page is fetched once, whether the caller awaits it, iterates, or both.
  const firstPage = () => (first ??= fetchPage(params?.starting_after));

  async function* items(): AsyncGenerator<T> {
    let page = await firstPage();
    for (;;) {
      for (const item of page.data) yield item;
      const last = page.data[page.data.length - 1];
      if (!page.has_more || last === undefined) return;
      page = await fetchPage(last.id);
    }
  }

  const promise = {
    then: <A = ApiResponse<List<T>>, B = never>(
      onFulfilled?: ((value: ApiResponse<List<T>>) => A | PromiseLike<A>) | null,
      onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
    ) => firstPage().then(onFulfilled, onRejected),
    catch: <B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null) => firstPage().catch(onRejected),
    finally: (onFinally?: (() => void) | null) => firstPage().finally(onFinally),
    [Symbol.toStringTag]: 'ListPromise',
    [Symbol.asyncIterator]: () => items(),
    async autoPagingToArray(options: { limit: number }): Promise<T[]> {
      if (!options || !Number.isInteger(options.limit) || options.limit < 1 || options.limit > MAX_AUTO_PAGING_TO_ARRAY) {
        throw new RangeError(`autoPagingToArray needs {limit} between 1 and ${MAX_AUTO_PAGING_TO_ARRAY}.`);
      }
      const out: T[] = [];
      for await (const item of items()) {
        out.push(item);
        if (out.length >= options.limit) break;
      }
      return out;
    },
    async autoPagingEach(onItem: (item: T) => boolean | void | Promise<boolean | void>): Promise<void> {
      for await (const item of items()) {
        if ((await onItem(item)) === false) return;
      }
    },
  };
  return promise;
}
