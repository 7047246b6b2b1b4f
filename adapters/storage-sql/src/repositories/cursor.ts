import { invalidParameter, type Mode } from '@payments/core';
import type { KnexContext } from '../knex-context';
import { INLINE } from '../sql-statements';
import { toNumber, type BigIntValue } from '../mapping/column-values';

/** The columns every cursor-paged table shares. */
interface ScopedRow {
  seq: BigIntValue;
  id: string;
  merchant_id: string;
  mode: string;
}

/**
 * The storage sequence of the object a `starting_after` cursor names, looked up within the scope
 * only: a cursor naming another merchant's or mode's object is as unknown as a made-up one. A
 * scope without a mode (a list of both modes) looks in both.
 */
export async function cursorSeq(
  context: KnexContext,
  table: string,
  scope: { readonly merchantId: string; readonly mode?: Mode },
  id: string,
  what: string,
): Promise<number> {
  const row = await context.firstRow<ScopedRow>(
    context
      .db()(table)
      .select('seq')
      .where({ id, merchant_id: scope.merchantId, ...(scope.mode === undefined ? {} : { mode: scope.mode }) })
      .limit(1, INLINE),
  );
  if (row === undefined) throw invalidParameter('starting_after', `starting_after names no ${what} of this account: '${id}'.`);
  return toNumber(row.seq);
}
