import type { PaymentFunds } from '../../funds';
import type { Ledger } from '../../ledger';
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
  /** Read only: the available balance a settlement pays. */
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
    'Nothing is available to settle: no released payment waits and the available balance is not above zero.',
  );
}

export function insufficientAvailableBalance(available: bigint, amount: bigint, currency: string): CoreError {
  return new CoreError(
    'insufficient_available_balance',
    'conflict',
    `The available balance (${available} ${currency} minor units) is not above zero, so nothing can be paid out of the ${amount} waiting; ` +
      'refunds or lost disputes overdrew it, and the payments wait until new ones cover it.',
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

/** Payments that one settlement covers, and the sum of their nets (at most 2^53 − 1). */
export interface SettlementPart {
  readonly payments: readonly PaymentIntent[];
  readonly amount: number;
}

/**
 * Cuts the payments, in the order given (oldest release first), into consecutive parts whose nets
 * each sum to at most 2^53 − 1 (`MAX_AMOUNT`): a settlement's amount is shown and sent to the
 * payout provider as an exact integer, so a batch that would not fit is paid as several, never
 * refused. Sums are BigInt, so the test itself cannot round. Each net is at most `MAX_AMOUNT`
 * (an intent's net never passes its converted amount), so every part holds at least one payment.
 */
export function settlementParts(payments: readonly PaymentIntent[]): SettlementPart[] {
  const parts: SettlementPart[] = [];
  let current: PaymentIntent[] = [];
  let sum = 0n;
  for (const payment of payments) {
    const net = BigInt(payment.net?.amount ?? 0);
    if (current.length > 0 && sum + net > BigInt(MAX_AMOUNT)) {
      parts.push({ payments: current, amount: Number(sum) });
      current = [];
      sum = 0n;
    }
    current.push(payment);
    sum += net;
  }
  if (current.length > 0) parts.push({ payments: current, amount: Number(sum) });
  return parts;
}

/**
 * Nets what the available balance lacks (`shortfall`: refunds and lost-dispute fees that overdrew
 * it) out of the parts, first ones first. A part netted to zero pays nothing and hands its payments
 * to the next part, so every settlement made pays a positive amount and every payment is covered.
 * The shortfall is below the parts' total, so the last part always keeps something.
 */
export function nettedParts(parts: readonly SettlementPart[], shortfall: bigint): SettlementPart[] {
  const netted: SettlementPart[] = [];
  let owed = shortfall;
  let carried: PaymentIntent[] = [];
  for (const part of parts) {
    const cut = owed < BigInt(part.amount) ? owed : BigInt(part.amount);
    owed -= cut;
    const payments = [...carried, ...part.payments];
    const amount = part.amount - Number(cut);
    if (amount === 0) {
      carried = payments;
      continue;
    }
    netted.push({ payments, amount });
    carried = [];
  }
  return netted;
}

function laterOf(a: Date, b: Date): Date {
  return a > b ? a : b;
}

/**
 * Adds `surplus` (available money no waiting payment accounts for) to the parts: the last part
 * takes what fits under 2^53 − 1, and the rest is paid in parts of their own, covering no payment.
 */
export function withSurplus(parts: readonly SettlementPart[], surplus: bigint): SettlementPart[] {
  const result = [...parts];
  let left = surplus;
  const last = result.at(-1);
  if (last && left > 0n) {
    const room = BigInt(MAX_AMOUNT - last.amount);
    const added = left < room ? left : room;
    result[result.length - 1] = { payments: last.payments, amount: last.amount + Number(added) };
    left -= added;
  }
  while (left > 0n) {
    const amount = left < BigInt(MAX_AMOUNT) ? left : BigInt(MAX_AMOUNT);
    result.push({ payments: [], amount: Number(amount) });
    left -= amount;
  }
  return result;
}

/**
 * Creates a `pending` settlement of what is available: it covers the payments that wait (released,
 * covered by no settlement, no open or lost dispute, net in the settlement currency) and pays the
 * whole available balance (read with its row locked): their nets, less what available lacks to
 * cover them (refunds of payments settled before and lost-dispute fees debit available, which may
 * go negative, and the next settlement nets that), or plus what it holds beyond them (a failed
 * refund's debit given back, a hold a won dispute returned after its payment was settled). An
 * available balance of zero or less pays nothing. The settlement, the payments' marks, the
 * `settlement_created` posting and `settlement.pending` commit together. Call it inside a unit of
 * work, under the scope's settlement lock.
 *
 * Payments whose nets sum past 2^53 − 1 are split (`settlementParts`): a scheduled batch makes
 * every part at once (parts 1, 2 … of its period, in one transaction), a manual request settles
 * the first part (the oldest payments) and leaves the rest to the next request. The answer is the
 * first settlement made; `openSettlementParts` answers them all.
 *
 * Throws 409 `nothing_to_settle`, 409 `insufficient_available_balance`, or ConcurrentUpdateError
 * (`settlement_conflict`) when another settlement took some of the payments meanwhile, which the
 * unit of work answers by running again.
 */
export async function openSettlement(deps: SettlementDeps, input: OpenSettlementInput): Promise<Settlement> {
  return (await openSettlementParts(deps, input))[0];
}

/** `openSettlement`, answering every settlement it made (more than one for a split scheduled batch). */
export async function openSettlementParts(deps: SettlementDeps, input: OpenSettlementInput): Promise<Settlement[]> {
  const { scope, merchant } = input;
  const currency = merchant.settlementCurrency;
  const now = deps.clock.now();
  // Every payment waiting now, so that money a later payment brings is never paid as a surplus.
  const waiting = (await deps.settlements.findSettleable(scope, laterOf(now, input.releasedBefore))).filter(
    (intent) => intent.net !== undefined && intent.net.currency === currency && intent.net.amount > 0,
  );
  const payments = waiting.filter((intent) => intent.releasedAt !== undefined && intent.releasedAt <= input.releasedBefore);
  const split = settlementParts(payments);
  const covered = input.trigger === 'scheduled' ? split : split.slice(0, 1);
  const total = covered.reduce((sum, part) => sum + BigInt(part.amount), 0n);
  const available = await deps.ledger.balanceForUpdate(merchantAccount(scope, 'available', currency));
  if (available <= 0n) throw payments.length === 0 ? nothingToSettle() : insufficientAvailableBalance(available, total, currency);
  // What is available beyond the payments' nets (a failed refund's debit given back, a hold
  // released after the payment was settled) is paid too, once every waiting payment is covered.
  const waitingTotal = waiting.reduce((sum, intent) => sum + BigInt(intent.net?.amount ?? 0), 0n);
  const surplus = covered.length === split.length && available > waitingTotal ? available - waitingTotal : 0n;
  const parts = available < total ? nettedParts(covered, total - available) : withSurplus(covered, surplus);

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
    if (assigned !== part.payments.length) {
      // Thrown inside the unit of work: the settlements and the marks made so far roll back, and
      // the unit of work runs again on what the other settlement left (nothing_to_settle, or the rest).
      throw new ConcurrentUpdateError('Another settlement covered some of these payments at the same time; retry.', 'settlement_conflict');
    }
    await deps.funds.settlementCreated({ settlementId: settlement.id, scope, amount: settlement.amount }, now);
    await publishEvent(deps, settlementEvent(settlement, deps.random, now), now);
    made.push(settlement);
  }
  return made;
}
