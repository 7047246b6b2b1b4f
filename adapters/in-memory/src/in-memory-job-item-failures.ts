import type { JobItemFailure, JobItemFailures, JobLane, WaitingJobItems } from '@payments/core';
import { deepCopy } from './deep-copy';

/**
 * Failure records kept apart from the store's tables: they commit on their own, so a unit of work
 * rolling back (the failed item's own) never takes a record with it.
 */
export class InMemoryJobItemFailures implements JobItemFailures {
  /** By `job`, then item id. */
  private readonly records = new Map<string, Map<string, JobItemFailure>>();

  async forJob(job: string, lane: JobLane): Promise<JobItemFailure[]> {
    return [...(this.records.get(job)?.values() ?? [])].filter((failure) => failure.lane === lane).map(deepCopy);
  }

  async save(failure: JobItemFailure): Promise<void> {
    let byItem = this.records.get(failure.job);
    if (!byItem) this.records.set(failure.job, (byItem = new Map<string, JobItemFailure>()));
    byItem.set(failure.itemId, deepCopy(failure));
  }

  async clear(job: string, itemId: string): Promise<void> {
    this.records.get(job)?.delete(itemId);
  }

  async list(limit: number): Promise<JobItemFailure[]> {
    return this.all()
      .sort((a, b) => b.lastFailedAt.getTime() - a.lastFailedAt.getTime())
      .slice(0, limit)
      .map(deepCopy);
  }

  async retryNow(itemId: string, now: Date): Promise<number> {
    let touched = 0;
    for (const byItem of this.records.values()) {
      const failure = byItem.get(itemId);
      if (!failure) continue;
      byItem.set(itemId, { ...failure, nextTryAt: new Date(now.getTime()) });
      touched += 1;
    }
    return touched;
  }

  async countWaiting(now: Date): Promise<WaitingJobItems[]> {
    const counts = new Map<string, WaitingJobItems>();
    for (const failure of this.all()) {
      if (failure.nextTryAt <= now) continue;
      const key = `${failure.job}\n${failure.lane}`;
      counts.set(key, { job: failure.job, lane: failure.lane, count: (counts.get(key)?.count ?? 0) + 1 });
    }
    return [...counts.values()];
  }

  private all(): JobItemFailure[] {
    return [...this.records.values()].flatMap((byItem) => [...byItem.values()]);
  }
}
