import type { AttemptFailureCode, Mode, SimulatedOutcome, StatementLine } from '@payments/core';
import type { SimulatorRefund } from './knex-simulator-refunds';

export type SimulatorOrderStatus = 'pending' | 'processing' | 'paid' | 'failed';

/** The simulated channel's own record of an order: what its confirming query answers. */
export interface SimulatorOrder {
  readonly id: string;
  /** Our attempt id; placing twice with one reference is one order. */
  readonly reference: string;
  readonly mode: Mode;
  readonly amount: number;
  readonly currency: string;
  readonly paymentMethod: string;
  readonly status: SimulatorOrderStatus;
  readonly failureCode?: AttemptFailureCode;
  readonly callbackUrl: string;
  /** An outcome to report on a coming tick (magic amounts). */
  readonly scheduled?: SimulatedOutcome;
  readonly dueAt?: Date;
  readonly paidAt?: Date;
  readonly settledAt?: Date;
  readonly created: Date;
}

export type SimulatorDisputeStatus = 'opened' | 'under_review' | 'won' | 'lost';

/** A dispute the simulated channel opened against one of its orders: what its dispute query answers. */
export interface SimulatorDispute {
  readonly id: string;
  readonly orderId: string;
  /** The order's reference (our attempt id). */
  readonly reference: string;
  readonly mode: Mode;
  readonly status: SimulatorDisputeStatus;
  readonly amount: number;
  readonly currency: string;
  readonly reason?: string;
  /** The last evidence set the service forwarded. */
  readonly evidence?: Readonly<Record<string, string>>;
  readonly created: Date;
  readonly updated: Date;
}

/**
 * One callback the simulator owes the service: an order's outcome, a dispute's or a refund's
 * notice (`orderId` then holds the refund's id, the subject its simulations are recorded under). It stays
 * due until the service answers 2xx or the tries run out (then the reconciler's query covers it).
 */
export interface SimulatorCallback {
  readonly id: string;
  readonly orderId: string;
  /** Set for a dispute notice. */
  readonly disputeId?: string;
  /** The Idempotency-Key of the simulate call that caused it; absent for magic outcomes. */
  readonly simulationKey?: string;
  /** What that call told the order (canonical JSON), compared when its retry comes. */
  readonly instruction?: string;
  readonly url: string;
  /** The unsigned body: it is signed afresh at each try, since signatures go stale. */
  readonly body: string;
  /** Tries so far, the one under way included. */
  readonly attempts: number;
  /** When a tick may try again; absent once delivered, superseded or given up. */
  readonly retryAt?: Date;
  readonly deliveredAt?: Date;
  readonly created: Date;
}

/** A place in the simulator's statement: lines are ordered by time, then kind, then the channel's id. */
export interface StatementPosition {
  /** Epoch milliseconds. */
  readonly at: number;
  readonly kind: string;
  readonly id: string;
}

/** Where the simulator keeps its orders: shared by every process of a deployment. */
export interface SimulatorOrderBook {
  /** Stores `order` unless one with its reference exists; returns the stored one either way. */
  insertOrGet(order: SimulatorOrder): Promise<SimulatorOrder>;
  find(id: string): Promise<SimulatorOrder | undefined>;
  /**
   * Stores the order; with `callback`, records that callback in the same transaction and retires
   * the order's older callbacks not yet delivered (only the newest outcome is worth reporting).
   */
  update(order: SimulatorOrder, callback?: SimulatorCallback): Promise<void>;
  /**
   * Orders whose scheduled outcome is due at `now`, each handed to one caller even with several
   * workers: the claim moves the due time to `leaseUntil`, and recording the outcome (`update`)
   * clears the schedule. A worker that dies between the two leaves the order due again once the
   * lease runs out, so the outcome is still reported.
   */
  claimDue(now: Date, limit: number, leaseUntil: Date): Promise<SimulatorOrder[]>;
  /** Marks paid orders paid at or before `paidBefore` as settled at `now`; returns how many. */
  settlePaid(paidBefore: Date, now: Date): Promise<number>;
  /** Stores a dispute and, in the same transaction, the notice that announces it. */
  insertDispute(dispute: SimulatorDispute, notice?: SimulatorCallback): Promise<void>;
  findDispute(id: string): Promise<SimulatorDispute | undefined>;
  /** The order's most recently opened dispute, ruled or not. */
  findLatestDispute(orderId: string): Promise<SimulatorDispute | undefined>;
  /** Stores a changed dispute and, in the same transaction, the notice that announces the change. */
  updateDispute(dispute: SimulatorDispute, notice?: SimulatorCallback): Promise<void>;
  /**
   * Callbacks not delivered, with fewer than `maxAttempts` tries, whose `retryAt` has come; oldest
   * first, each handed to exactly one caller even with several workers: the claim counts the try
   * and leases the row until `leaseUntil` (a caller that dies mid-try leaves it due again then).
   */
  claimDueCallbacks(now: Date, limit: number, maxAttempts: number, leaseUntil: Date): Promise<SimulatorCallback[]>;
  /**
   * After a refused try: when to try again, or undefined to give up. A callback delivered or
   * retired meanwhile (its `retryAt` cleared) stays as it is.
   */
  rescheduleCallback(id: string, retryAt: Date | undefined): Promise<void>;
  /** Marks a callback delivered: no tick tries it again. */
  markCallbackDelivered(id: string, now: Date): Promise<void>;
  /** The newest callback a simulate call under `simulationKey` caused for this order (or refund). */
  findSimulation(orderId: string, simulationKey: string): Promise<SimulatorCallback | undefined>;
  /** Stores `refund` unless one with its reference exists; returns the stored one either way. */
  insertRefundOrGet(refund: SimulatorRefund): Promise<SimulatorRefund>;
  findRefund(id: string): Promise<SimulatorRefund | undefined>;
  findRefundByReference(reference: string): Promise<SimulatorRefund | undefined>;
  /** What an order's refunds that did not fail add up to. */
  refundedOf(orderId: string): Promise<number>;
  /** Stores a changed refund and, in the same transaction, the notice that announces the change. */
  updateRefund(refund: SimulatorRefund, notice: SimulatorCallback): Promise<void>;
  /** Pending refunds due to be reported, each handed to one caller (leased as `claimDue` leases orders). */
  claimDueRefunds(now: Date, limit: number, leaseUntil: Date): Promise<SimulatorRefund[]>;
  /**
   * The statement's lines of `mode` after `after` and before `before` (by time, kind, id), at most
   * `limit`: orders paid, refunds succeeded, disputes lost.
   */
  statementLines(mode: Mode, after: StatementPosition | undefined, before: Date, limit: number): Promise<StatementLine[]>;
}
