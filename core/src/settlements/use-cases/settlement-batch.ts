import type { PaymentFunds } from '../../funds';
import type { Ledger, UncoveredEntry } from '../../ledger';
import { merchantAccount } from '../../ledger';
import type { Merchant, MerchantRepository, RequestKey } from '../../merchants';
import type { PaymentIntent } from '../../payments';
import type { AccountScope, Clock, LockManager, RandomSource, UnitOfWork } from '../../common';
import { ConcurrentUpdateError, CoreError, MAX_AMOUNT, newId } from '../../common';
import { domainEvent, publishEvent, type DomainEvent, type EventPublishDeps } from '../../webhooks';
import type { Settlement } from '../domain/settlement.entity';
import type { SettlementRepository } from '../ports/settlement.repository.port';

/** The ports creating and moving settlements write through. */
export interface SettlementDeps extends EventPublishDeps {
  readonly settlements: SettlementRepository;
  /** The available balance a settlement pays, the entries it covers, and their marks. */
  readonly ledger: Ledger;
  readonly funds: PaymentFunds;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** What opens a batch: the writes above, the merchant, one transaction and the lock of its merchant and mode. */
export interface SettlementWriterDeps extends SettlementDeps {
  readonly uow: UnitOfWork;
  readonly merchants: MerchantRepository;
  readonly locks: LockManager;
}

/** The lock under which a merchant's settlements of one mode are created, one at a time. */
export function settlementLockKey(scope: AccountScope): string {
  return `settlement:${scope.merchantId}:${scope.mode}`;
}

/** How long a settlement lock may be held before it is presumed dead (a creation is one short transaction). */
export const SETTLEMENT_LOCK_TTL_MS = 30_000;

/** `settlement.<status>`: a notice carrying the amount. */
export function settlementEvent(settlement: Settlement, random: RandomSource, now: Date): DomainEvent {
  const amount = { amount: settlement.amount.amount, currency: settlement.amount.currency };
  return domainEvent(`settlement.${settlement.status}`, 'settlement', settlement, random, now, { amount });
}

export function nothingToSettle(): CoreError {
  return new CoreError(
    'nothing_to_settle',
    'conflict',
    'Nothing is available to settle: no released payment waits and the available money no settlement covered yet is not above zero.',
  );
}

export function insufficientAvailableBalance(total: bigint, currency: string): CoreError {
  return new CoreError(
    'insufficient_available_balance',
    'conflict',
    `What a settlement would pay now (${total} ${currency} minor units: the released payments that wait, less the refunds and lost disputes ` +
      'no settlement covered yet) is not above zero, so nothing can be paid out; the payments wait until new ones cover it.',
  );
}

export interface OpenSettlementInput {
  readonly merchant: Merchant;
  readonly scope: AccountScope;
  readonly trigger: Settlement['trigger'];
  /** Payments released at or before this instant are covered. */
  readonly releasedBefore: Date;
  /** Scheduled batches: the period; manual ones span the covered payments' releases up to now. */
  readonly period?: { readonly start: Date; readonly end: Date };
  /** Manual ones: the request's Idempotency-Key, stored on the settlement. */
  readonly requestKey?: RequestKey;
}

/**
 * A piece of what a settlement pays: an uncovered entry of the available account (`entry`), or,
 * without one, available money no entry accounts for (see `SettlementPlan.unrecorded`).
 */
export interface CoveredPiece {
  readonly entry?: UncoveredEntry;
  readonly amount: bigint;
}

/** One settlement of a plan: the pieces it covers, summing to its amount (above zero, at most 2^53 − 1). */
export interface PlannedSettlement {
  readonly pieces: readonly CoveredPiece[];
  readonly amount: number;
  /** The payments it covers: those whose first covered entry it holds (the first part also takes those with none). */
  readonly payments: readonly PaymentIntent[];
}

/**
 * What a settlement of a merchant and mode covers and pays, by the rule of docs/settlements.md
 * ("What a settlement covers"): the uncovered entries U of the available account, less the entries
 * of the payments that wait but this settlement does not cover (released after the end of the
 * period it closes) = C; it pays Σ C, in parts past 2^53 − 1 (a manual request makes the first).
 */
export interface SettlementPlan {
  /** The payments it covers. */
  readonly payments: readonly PaymentIntent[];
  /** C: the entries it covers, in posting order. */
  readonly entries: readonly UncoveredEntry[];
  /**
   * The available balance less Σ U: 0 for an account whose every entry was posted since the ledger
   * records what settlements cover. An account settled before (migration 024 attributed its older
   * entries by their order) may hold money the settlements of that time left in available, which
   * no uncovered entry accounts for: the next settlement pays it too.
   */
  readonly unrecorded: bigint;
  /** Σ C + unrecorded: what the settlement pays, all its parts together (exact, may pass 2^53 − 1). */
  readonly total: bigint;
  /** The settlements it takes, each at most 2^53 − 1; empty when the total is not above zero. */
  readonly parts: readonly PlannedSettlement[];
}

/**
 * Cuts what a settlement pays into parts that each sum to more than zero and at most 2^53 − 1, so
 * every amount is shown and sent exactly and each part's entries add up to its own amount: the
 * negative pieces first (they all go to the first part), then the others in posting order, a new
 * part starting where the next piece would pass 2^53 − 1. Each piece is at most 2^53 − 1, so a
 * part closed for the next piece already holds more than zero; later parts hold only positive
 * pieces. A total of at most 2^53 − 1 is never cut. `total` must be above zero.
 */
export function coveredParts(pieces: readonly CoveredPiece[]): CoveredPiece[][] {
  const ordered = [...pieces.filter((piece) => piece.amount < 0n), ...pieces.filter((piece) => piece.amount >= 0n)];
  const parts: CoveredPiece[][] = [];
  let current: CoveredPiece[] = [];
  let sum = 0n;
  for (const piece of ordered) {
    if (current.length > 0 && piece.amount > 0n && sum + piece.amount > BigInt(MAX_AMOUNT)) {
      parts.push(current);
      current = [];
      sum = 0n;
    }
    current.push(piece);
    sum += piece.amount;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** `amount` as pieces of at most 2^53 − 1 each (a negative amount stays one piece: it only lowers a part). */
function unrecordedPieces(amount: bigint): CoveredPiece[] {
  const pieces: CoveredPiece[] = [];
  let left = amount;
  while (left > BigInt(MAX_AMOUNT)) {
    pieces.push({ amount: BigInt(MAX_AMOUNT) });
    left -= BigInt(MAX_AMOUNT);
  }
  if (left !== 0n) pieces.push({ amount: left });
  return pieces;
}

function sumOf(pieces: readonly { readonly amount: number | bigint }[]): bigint {
  return pieces.reduce((total, piece) => total + BigInt(piece.amount), 0n);
}

function laterOf(a: Date, b: Date): Date {
  return a > b ? a : b;
}

/** The ports a plan reads. */
export type SettlementPlanDeps = Pick<SettlementDeps, 'settlements' | 'ledger'>;

/**
 * The plan of a settlement of `input` at `now`, given the account's `available` balance (read with
 * its row locked when the settlement is to be made). Reads, writes nothing: `openSettlementParts`
 * makes it, the next settlement shown with the balance previews it.
 */
export async function planSettlement(
  deps: SettlementPlanDeps,
  input: Pick<OpenSettlementInput, 'merchant' | 'scope' | 'trigger' | 'releasedBefore'>,
  now: Date,
  available: bigint,
): Promise<SettlementPlan> {
  const { scope, merchant } = input;
  const currency = merchant.settlementCurrency;
  // Every payment waiting now: the money of those this settlement does not cover is left for theirs.
  const waiting = (await deps.settlements.findSettleable(scope, laterOf(now, input.releasedBefore))).filter(
    (intent) => intent.net !== undefined && intent.net.currency === currency && intent.net.amount > 0,
  );
  // Every released payment is planned, for a manual request too: it makes only the first part
  // (`coveredParts`), which nets every negative piece. Picking the payments whose nets fit in one
  // part first would leave out the others' money but not the negative entries, and a negative
  // balance larger than that part's nets refused every request while more was available.
  const payments = waiting.filter((intent) => intent.releasedAt !== undefined && intent.releasedAt <= input.releasedBefore);
  const coveredIds = new Set(payments.map((intent) => intent.id));
  const left = new Set(waiting.filter((intent) => !coveredIds.has(intent.id)).map((intent) => intent.id));
  const uncovered = await deps.ledger.uncoveredEntries(merchantAccount(scope, 'available', currency));
  const entries = uncovered.filter((entry) => entry.paymentIntentId === undefined || !left.has(entry.paymentIntentId));
  const unrecorded = available - sumOf(uncovered);
  const total = sumOf(entries) + unrecorded;
  if (total <= 0n) return { payments, entries, unrecorded, total, parts: [] };

  const pieces = [...unrecordedPieces(unrecorded), ...entries.map((entry) => ({ entry, amount: BigInt(entry.amount) }))];
  const cut = coveredParts(pieces);
  // Each payment goes with the part that holds its first covered entry; those with none, the first.
  const partOf = new Map<string, number>();
  for (const [index, part] of cut.entries()) {
    for (const piece of part) {
      const id = piece.entry?.paymentIntentId;
      if (id !== undefined && coveredIds.has(id) && !partOf.has(id)) partOf.set(id, index);
    }
  }
  const parts = cut.map((part, index) => ({
    pieces: part,
    amount: Number(sumOf(part)),
    payments: payments.filter((intent) => (partOf.get(intent.id) ?? 0) === index),
  }));
  return { payments, entries, unrecorded, total, parts };
}

/**
 * Creates a `pending` settlement of what is available, by the rule of docs/settlements.md ("What a
 * settlement covers"): it covers the payments that wait (released, covered by no settlement, no
 * open or lost dispute, net in the settlement currency; a manual request the first part of them)
 * and the entries of the available account no settlement covered yet, except those of the
 * waiting payments it does not cover; it pays what those entries sum to. The settlement, the
 * payments' marks, the entries' marks, its `settlement_created` posting (its own entry marked
 * too) and `settlement.pending` commit together. Call it inside a unit of work, under the scope's
 * settlement lock.
 *
 * What passes 2^53 − 1 is paid in parts (`coveredParts`), each covering entries that sum to its
 * own amount: a scheduled batch makes every part at once (parts 1, 2 … of its period), a manual
 * request the first part, leaving the other entries and their payments to the next request. The
 * answer is the first settlement made; `openSettlementParts` answers them all.
 *
 * Throws 409 `nothing_to_settle` (nothing above zero to pay and no payment waits),
 * 409 `insufficient_available_balance` (payments wait, but the sum is not above zero), or
 * ConcurrentUpdateError (`settlement_conflict`) when another settlement took some of the payments
 * or entries meanwhile, which the unit of work answers by running again.
 */
export async function openSettlement(deps: SettlementDeps, input: OpenSettlementInput): Promise<Settlement> {
  return (await openSettlementParts(deps, input))[0];
}

/** `openSettlement`, answering every settlement it made (more than one for a scheduled batch past 2^53 − 1). */
export async function openSettlementParts(deps: SettlementDeps, input: OpenSettlementInput): Promise<Settlement[]> {
  const { scope, merchant } = input;
  const currency = merchant.settlementCurrency;
  const account = merchantAccount(scope, 'available', currency);
  const now = deps.clock.now();
  // Locked first: no posting to available commits until this transaction ends, so the entries
  // read next are exactly what the balance sums.
  const available = await deps.ledger.balanceForUpdate(account);
  const plan = await planSettlement(deps, input, now, available);
  if (plan.total <= 0n) throw plan.payments.length === 0 ? nothingToSettle() : insufficientAvailableBalance(plan.total, currency);
  const parts = input.trigger === 'scheduled' ? plan.parts : plan.parts.slice(0, 1);

  const made: Settlement[] = [];
  for (const [index, part] of parts.entries()) {
    const releases = part.payments.length === 0 ? [now.getTime()] : part.payments.map((intent) => (intent.releasedAt ?? now).getTime());
    const settlement: Settlement = {
      id: newId(deps.random, 'settlement'),
      merchantId: scope.merchantId,
      mode: scope.mode,
      status: 'pending',
      amount: { amount: part.amount, currency },
      payments: part.payments.length,
      periodStart: input.period?.start ?? new Date(Math.min(...releases)),
      periodEnd: input.period?.end ?? now,
      trigger: input.trigger,
      ...(input.trigger === 'scheduled' ? { part: index + 1 } : {}),
      ...(input.requestKey === undefined ? {} : { requestKey: input.requestKey }),
      created: now,
      updated: now,
    };
    await deps.settlements.insert(settlement);
    const assigned = await deps.settlements.assignPayments(
      scope,
      settlement.id,
      part.payments.map((intent) => intent.id),
    );
    const entryIds = part.pieces.flatMap((piece) => (piece.entry ? [piece.entry.id] : []));
    const covered = await deps.ledger.coverEntries(account, settlement.id, entryIds);
    if (assigned !== part.payments.length || covered !== entryIds.length) {
      // Thrown inside the unit of work: the settlements and the marks made so far roll back, and
      // the unit of work runs again on what the other settlement left (nothing_to_settle, or the rest).
      throw new ConcurrentUpdateError('Another settlement covered some of these payments at the same time; retry.', 'settlement_conflict');
    }
    await deps.funds.settlementCreated({ settlementId: settlement.id, scope, amount: settlement.amount }, now);
    // Its own entry names it too: every entry of available is covered by the settlement that paid it or is it.
    await deps.ledger.coverCause(account, settlement.id, `settlement_created:${settlement.id}`);
    await publishEvent(deps, settlementEvent(settlement, deps.random, now), now);
    made.push(settlement);
  }
  return made;
}
