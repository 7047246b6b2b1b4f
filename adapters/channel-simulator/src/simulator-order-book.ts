import type { AttemptFailureCode, Mode, SimulatedOutcome } from '@payments/core';

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

/** Where the simulator keeps its orders: shared by every process of a deployment. */
export interface SimulatorOrderBook {
  /** Stores `order` unless one with its reference exists; returns the stored one either way. */
  insertOrGet(order: SimulatorOrder): Promise<SimulatorOrder>;
  find(id: string): Promise<SimulatorOrder | undefined>;
  update(order: SimulatorOrder): Promise<void>;
  /**
   * Orders whose scheduled outcome is due at `now`, each handed to exactly one caller even with
   * several workers: the claim clears the schedule.
   */
  claimDue(now: Date, limit: number): Promise<SimulatorOrder[]>;
  /** Marks paid orders paid at or before `paidBefore` as settled at `now`; returns how many. */
  settlePaid(paidBefore: Date, now: Date): Promise<number>;
}
