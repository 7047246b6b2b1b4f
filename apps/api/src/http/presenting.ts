import type { Page } from '@payments/core';
import { rfc3339Seconds, withoutUndefined } from '@payments/core';

/** Timestamps on the wire: RFC 3339 UTC with Z and whole seconds (the event renderer's rule). */
export const timestamp = rfc3339Seconds;

/** Drops absent fields: the API omits a field rather than sending null. */
export const compact: <T extends Record<string, unknown>>(object: T) => T = withoutUndefined;

/**
 * The list envelope `{object: "list", data, has_more}`: of a cursor page, or of a short
 * collection that always comes whole (has_more false).
 */
export function presentList<T>(items: Page<T> | readonly T[], present: (item: T) => object): Record<string, unknown> {
  const page: Page<T> = 'data' in items ? items : { data: [...items], hasMore: false };
  return { object: 'list', data: page.data.map(present), has_more: page.hasMore };
}
