import type { Clock } from '../../common';
import { isCoreError } from '../../common';
import type { JobItemFailure, JobItemFailures, JobLane } from '../ports/job-item-failures.port';
import { JobPass, type ItemJob } from './item-job';

/** A failed item's next try: 10 s after its first failure, doubling, at most an hour apart. */
export const JOB_ITEM_RETRY = { firstMs: 10_000, maxMs: 3_600_000 } as const;

/** Sees every item failure (the worker's metrics and warning log). */
export interface JobItemObserver {
  itemFailed(failure: JobItemFailure): void;
}

export interface RunItemJobsDeps {
  readonly failures: JobItemFailures;
  readonly clock: Clock;
  /**
   * True for an error that says a dependency every item needs is down (the database, Redis): the
   * pass stops there, and no item is blamed for it.
   */
  readonly isOutage?: (error: unknown) => boolean;
  readonly observer?: JobItemObserver;
}

/** What one pass of a job over one lane did. */
export interface ItemPassResult<T, R> {
  readonly outcomes: ReadonlyArray<{ readonly item: T; readonly outcome: R }>;
  /** Items that did something (see `ItemJob.progressed`). */
  readonly progressed: number;
  /** Items that threw this pass: recorded, and skipped until their next try. */
  readonly failed: number;
  /** Items skipped because an earlier failure's next try is not due yet. */
  readonly deferred: number;
}

/**
 * Runs a background job's items one by one, each on its own, so no item can stop the others:
 * - an item that throws is recorded (error code, attempts, next try with capped exponential
 *   backoff) and the pass goes on;
 * - until its next try is due, a failed item is skipped and takes no place in the batch: the job
 *   is asked for `limit` items besides the failures waiting, so healthy items behind a failing
 *   one are always reached;
 * - an item that succeeds after failing loses its record.
 */
export class RunItemJobs {
  constructor(private readonly deps: RunItemJobsDeps) {}

  async run<T, R>(job: ItemJob<T, R>, lane: JobLane, limit: number): Promise<ItemPassResult<T, R>> {
    const now = this.deps.clock.now();
    const known = new Map((await this.deps.failures.forJob(job.name, lane)).map((failure) => [failure.itemId, failure]));
    const deferredIds = new Set([...known.values()].filter((failure) => failure.nextTryAt > now).map((failure) => failure.itemId));
    const candidates = await job.due(lane, limit, deferredIds);
    const pass = new JobPass();
    const outcomes: Array<{ item: T; outcome: R }> = [];
    let failed = 0;
    let deferred = 0;
    const queue: T[] = [];
    for (const item of candidates) {
      if (deferredIds.has(job.idOf(item))) deferred += 1;
      else if (queue.length < limit) queue.push(item);
    }
    const handleOne = async (item: T): Promise<void> => {
      const itemId = job.idOf(item);
      const previous = known.get(itemId);
      let outcome: R;
      try {
        outcome = await job.handle(item, pass);
      } catch (error) {
        if (this.deps.isOutage?.(error)) throw error;
        await this.recordFailure(job.name, lane, itemId, previous, error);
        failed += 1;
        return;
      }
      outcomes.push({ item, outcome });
      if (previous) await this.deps.failures.clear(job.name, itemId);
    };
    // A few workers pull from one queue; with the default concurrency of 1, one item after another.
    const worker = async (): Promise<void> => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await handleOne(item);
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(job.concurrency ?? 1, queue.length)) }, worker));
    const progressed = outcomes.filter(({ item, outcome }) => (job.progressed ? job.progressed(outcome, item) : Boolean(outcome))).length;
    return { outcomes, progressed, failed, deferred };
  }

  /** One pass over each of the job's lanes in turn (tools and tests; the worker runs lanes apart). */
  async runEveryLane<T, R>(job: ItemJob<T, R>, limit: number): Promise<ItemPassResult<T, R>> {
    const results = [];
    for (const lane of job.lanes) results.push(await this.run(job, lane, limit));
    return {
      outcomes: results.flatMap((result) => result.outcomes),
      progressed: results.reduce((sum, result) => sum + result.progressed, 0),
      failed: results.reduce((sum, result) => sum + result.failed, 0),
      deferred: results.reduce((sum, result) => sum + result.deferred, 0),
    };
  }

  private async recordFailure(job: string, lane: JobLane, itemId: string, previous: JobItemFailure | undefined, error: unknown): Promise<void> {
    const now = this.deps.clock.now();
    const attempts = (previous?.attempts ?? 0) + 1;
    const { code, message } = describeError(error);
    const failure: JobItemFailure = {
      job,
      lane,
      itemId,
      errorCode: code,
      ...(message === undefined ? {} : { errorMessage: message }),
      attempts,
      firstFailedAt: previous?.firstFailedAt ?? now,
      lastFailedAt: now,
      nextTryAt: new Date(now.getTime() + retryDelayMs(attempts)),
    };
    await this.deps.failures.save(failure);
    this.deps.observer?.itemFailed(failure);
  }
}

/** The wait before the try after `attempts` failures in a row. */
export function retryDelayMs(attempts: number): number {
  return Math.min(JOB_ITEM_RETRY.firstMs * 2 ** Math.min(attempts - 1, 30), JOB_ITEM_RETRY.maxMs);
}

const MESSAGE_MAX = 300;
const CODE_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * What a failure record keeps of an error: its stable code, and the message only when it is one
 * of ours (a CoreError names ids and rules, never secrets); a driver's message may quote data.
 */
function describeError(error: unknown): { code: string; message?: string } {
  if (isCoreError(error)) return { code: error.code, message: error.message.slice(0, MESSAGE_MAX) };
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && CODE_PATTERN.test(code)) return { code };
  return { code: error instanceof Error && CODE_PATTERN.test(error.name) ? error.name : 'unknown_error' };
}
