import type { Mode } from '../../common';
import type { StatementLineKind } from '../../payments';

/**
 * Reconciliation with the channel (docs/reconciliation.md): every line of a channel's statement is
 * matched to the ledger's channel movements, and every movement to a line, by key (channel, mode,
 * kind, reference) and by amount per currency, each side summed over the key. What does not match
 * is a break, once it is expected to match (the timing rule, `judge`).
 */

/** Why a key does not match. */
export type BreakReason = 'missing_in_ledger' | 'missing_in_statement' | 'amount_differs';
export const BREAK_REASONS: readonly BreakReason[] = ['missing_in_ledger', 'missing_in_statement', 'amount_differs'];

/**
 * A key that did not match: `waiting` while it is not yet expected to (its grace runs, or our own
 * records say the money is still on its way), `open` once it is a break, `cleared` once a break
 * matched after all (kept, never deleted, so what happened stays readable).
 */
export type ReconciliationStatus = 'waiting' | 'open' | 'cleared';
export const RECONCILIATION_STATUSES: readonly ReconciliationStatus[] = ['waiting', 'open', 'cleared'];

/** The key of a line or a movement within one channel and mode. */
export interface MatchKey {
  readonly kind: StatementLineKind;
  readonly reference: string;
}

/** An exact amount in one currency. */
export interface Amount {
  readonly amount: bigint;
  readonly currency: string;
}

/** One side's total of a key in one currency: the statement's lines, or the ledger's movements. */
export interface KeyTotal extends MatchKey {
  readonly currency: string;
  readonly amount: bigint;
  /** The merchant, when the side knows it (the ledger's movements do). */
  readonly merchantId?: string;
}

/** A key whose two sides differ. */
export interface Mismatch extends MatchKey {
  readonly reason: BreakReason;
  /** What each side adds up to, per currency, zeros left out (sorted by currency). */
  readonly statement: readonly Amount[];
  readonly ledger: readonly Amount[];
  readonly merchantId?: string;
}

/** A mismatch as the reconciliation records it, from first sight until it matches. */
export interface ReconciliationItem extends Mismatch {
  /** `rcb_…` */
  readonly id: string;
  readonly channel: string;
  readonly mode: Mode;
  readonly status: ReconciliationStatus;
  /** Why it waits, when our own records say the money is still on its way (`refund_pending` …). */
  readonly detail?: string;
  /** When the mismatch was first seen with nothing on its way: the grace runs from then. */
  readonly firstSeenAt: Date;
  readonly openedAt?: Date;
  readonly clearedAt?: Date;
  readonly updated: Date;
}

/** The text key of a match key. */
export function matchKey(key: MatchKey): string {
  return `${key.kind}:${key.reference}`;
}

/** A text key back into its kind and reference (the kind never holds a colon; a reference may). */
export function parseMatchKey(text: string): MatchKey {
  const at = text.indexOf(':');
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- every text key was made by matchKey from a kind.
  return { kind: text.slice(0, at) as StatementLineKind, reference: text.slice(at + 1) };
}

/** Each key's non-zero amounts per currency, sorted by currency. */
export function amountsByKey(totals: readonly KeyTotal[]): Map<string, Amount[]> {
  const sums = new Map<string, Map<string, bigint>>();
  for (const total of totals) {
    const key = matchKey(total);
    const byCurrency = sums.get(key) ?? new Map<string, bigint>();
    byCurrency.set(total.currency, (byCurrency.get(total.currency) ?? 0n) + total.amount);
    sums.set(key, byCurrency);
  }
  const amounts = new Map<string, Amount[]>();
  for (const [key, byCurrency] of sums) {
    const nonZero = [...byCurrency]
      .filter(([, amount]) => amount !== 0n)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([currency, amount]) => ({ amount, currency }));
    amounts.set(key, nonZero);
  }
  return amounts;
}

/** Why two sides of one key differ, or undefined when they match (equal amounts in every currency). */
export function breakReason(statement: readonly Amount[], ledger: readonly Amount[]): BreakReason | undefined {
  if (sameAmounts(statement, ledger)) return undefined;
  if (ledger.length === 0) return 'missing_in_ledger';
  if (statement.length === 0) return 'missing_in_statement';
  return 'amount_differs';
}

/**
 * Matches a channel's statement lines with the ledger's movements of the same channel and mode
 * (each side already summed or not: sums are taken here per key and currency). Every key of
 * either side is compared; a key whose sides both add up to nothing (a refund and its reversal,
 * with no line) matches. Answers the keys that differ, in key order.
 */
export function matchStatement(lines: readonly KeyTotal[], movements: readonly KeyTotal[]): Mismatch[] {
  const statement = amountsByKey(lines);
  const ledger = amountsByKey(movements);
  const merchants = new Map<string, string>();
  for (const total of [...movements, ...lines])
    if (total.merchantId !== undefined && !merchants.has(matchKey(total))) merchants.set(matchKey(total), total.merchantId);
  const keys = [...new Set([...statement.keys(), ...ledger.keys()])].sort();
  const mismatches: Mismatch[] = [];
  for (const key of keys) {
    const sides = { statement: statement.get(key) ?? [], ledger: ledger.get(key) ?? [] };
    const reason = breakReason(sides.statement, sides.ledger);
    if (reason === undefined) continue;
    const merchantId = merchants.get(key);
    mismatches.push({ ...parseMatchKey(key), reason, ...sides, ...(merchantId === undefined ? {} : { merchantId }) });
  }
  return mismatches;
}

/** What the reconciliation of some keys decided. */
export interface Judgement {
  /** Items to store (new or changed). */
  readonly save: readonly ReconciliationItem[];
  /** Ids of waiting items whose keys now match: they never were breaks. */
  readonly remove: readonly string[];
  /** Breaks opened now. */
  readonly opened: readonly ReconciliationItem[];
  /** Breaks that matched now. */
  readonly cleared: readonly ReconciliationItem[];
}

export interface JudgeInput {
  readonly channel: string;
  readonly mode: Mode;
  /** Every key compared this time (text keys, `matchKey`): those absent from `mismatches` matched. */
  readonly checked: ReadonlySet<string>;
  readonly mismatches: readonly Mismatch[];
  /** The channel and mode's items not cleared (waiting and open). */
  readonly items: readonly ReconciliationItem[];
  /** Mismatched keys whose money our own records say is still on its way, and why (`refund_pending`). */
  readonly inFlight: ReadonlyMap<string, string>;
  readonly now: Date;
  /** How long a mismatch with nothing on its way may last before it is a break. */
  readonly graceMs: number;
  readonly newId: () => string;
}

/**
 * The timing rule (docs/reconciliation.md): a mismatch is a break once it has lasted `graceMs`
 * since it was first seen with nothing on its way; while our records say its money is on its way
 * (`inFlight`) it waits and its grace starts again. A break stays open until its key matches, and
 * is then cleared (kept); a waiting mismatch that matches is forgotten, never having been a break.
 */
export function judge(input: JudgeInput): Judgement {
  const { now } = input;
  const items = new Map(input.items.map((item) => [matchKey(item), item]));
  const mismatched = new Map(input.mismatches.map((mismatch) => [matchKey(mismatch), mismatch]));
  const judgement = { save: [] as ReconciliationItem[], remove: [] as string[], opened: [] as ReconciliationItem[], cleared: [] as ReconciliationItem[] };
  for (const key of input.checked) {
    const item = items.get(key);
    const mismatch = mismatched.get(key);
    if (!mismatch) {
      if (item?.status === 'open') {
        // What the break was stays on it; it is cleared, not forgotten.
        const cleared: ReconciliationItem = { ...item, status: 'cleared', clearedAt: now, updated: now };
        judgement.save.push(cleared);
        judgement.cleared.push(cleared);
      } else if (item) {
        judgement.remove.push(item.id);
      }
      continue;
    }
    const identity: ItemIdentity = {
      id: item?.id ?? input.newId(),
      channel: input.channel,
      mode: input.mode,
      kind: mismatch.kind,
      reference: mismatch.reference,
    };
    const merchantId = mismatch.merchantId ?? item?.merchantId;
    const sides = {
      reason: mismatch.reason,
      statement: mismatch.statement,
      ledger: mismatch.ledger,
      ...(merchantId === undefined ? {} : { merchantId }),
    };
    if (item?.status === 'open') {
      if (!sameSides(item, mismatch)) judgement.save.push({ ...item, ...sides, updated: now });
      continue;
    }
    const why = input.inFlight.get(key);
    if (why !== undefined) {
      judgement.save.push({ ...identity, ...sides, status: 'waiting', detail: why, firstSeenAt: now, updated: now });
      continue;
    }
    // The grace runs from when the mismatch was first seen with nothing on its way.
    const firstSeenAt = item && item.detail === undefined ? item.firstSeenAt : now;
    if (now.getTime() - firstSeenAt.getTime() >= input.graceMs) {
      const opened: ReconciliationItem = { ...identity, ...sides, status: 'open', firstSeenAt, openedAt: now, updated: now };
      judgement.save.push(opened);
      judgement.opened.push(opened);
    } else if (!item || item.detail !== undefined || !sameSides(item, mismatch)) {
      judgement.save.push({ ...identity, ...sides, status: 'waiting', firstSeenAt, updated: now });
    }
  }
  return judgement;
}

/** What names an item whatever becomes of it. */
type ItemIdentity = Pick<ReconciliationItem, 'id' | 'channel' | 'mode' | 'kind' | 'reference'>;

function sameAmounts(a: readonly Amount[], b: readonly Amount[]): boolean {
  return a.length === b.length && a.every((x, i) => x.currency === b[i].currency && x.amount === b[i].amount);
}

function sameSides(item: Mismatch, mismatch: Mismatch): boolean {
  return item.reason === mismatch.reason && sameAmounts(item.statement, mismatch.statement) && sameAmounts(item.ledger, mismatch.ledger);
}
