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
  insertDispute(dispute: SimulatorDispute): Promise<void>;
  findDispute(id: string): Promise<SimulatorDispute | undefined>;
  /** The order's most recently opened dispute, ruled or not. */
  findLatestDispute(orderId: string): Promise<SimulatorDispute | undefined>;
  updateDispute(dispute: SimulatorDispute): Promise<void>;
}
