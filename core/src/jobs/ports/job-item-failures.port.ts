import type { Mode } from '../../common';
import { token } from '../../common';

/**
 * Background work runs in lanes that never wait for each other: live money, test money, and the
 * platform's own chores (purges, the ledger check). A test-mode item can never delay live work.
 */
export type JobLane = Mode | 'platform';
export const JOB_LANES: readonly JobLane[] = ['live', 'test', 'platform'];

/** One item a background job could not handle: recorded so it is skipped, retried later and seen. */
export interface JobItemFailure {
  /** The job's name (`report-channel-settlements`). */
  readonly job: string;
  readonly lane: JobLane;
  /** The item's id: an intent, attempt, dispute, settlement, notice, delivery, order or merchant id. */
  readonly itemId: string;
  /** The error's stable code (`ledger_unbalanced`), never its data. */
  readonly errorCode: string;
  /** Our own words about the error when we wrote them (a CoreError's message); never a driver's. */
  readonly errorMessage?: string;
  /** How many times in a row the item failed. */
  readonly attempts: number;
  readonly firstFailedAt: Date;
  readonly lastFailedAt: Date;
  /** Before this instant the item is skipped; from then on the job tries it again. */
  readonly nextTryAt: Date;
}

/** How many failed items of one job wait for their next try. */
export interface WaitingJobItems {
  readonly job: string;
  readonly lane: JobLane;
  readonly count: number;
}

/**
 * The record of failing background items. Writes commit on their own, never inside the item's
 * transaction (which the failure rolled back).
 */
export interface JobItemFailures {
  /** Every failure recorded for a job's lane: what a pass skips or tries again. */
  forJob(job: string, lane: JobLane): Promise<JobItemFailure[]>;
  /** Records a failure, replacing the item's previous record for this job. */
  save(failure: JobItemFailure): Promise<void>;
  /** Forgets an item's failure once the job handled it. */
  clear(job: string, itemId: string): Promise<void>;
  /** Failures across every job, the most recent first (the operator's list). */
  list(limit: number): Promise<JobItemFailure[]>;
  /** Makes an item's failures due at `now` (the operator's retry); returns how many records it touched. */
  retryNow(itemId: string, now: Date): Promise<number>;
  /** Per job and lane, how many failed items wait for a next try after `now` (the metrics' gauge). */
  countWaiting(now: Date): Promise<WaitingJobItems[]>;
}
export const JobItemFailures = token<JobItemFailures>('JobItemFailures');
