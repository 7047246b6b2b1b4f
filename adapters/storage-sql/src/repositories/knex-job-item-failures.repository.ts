import type { JobItemFailure, JobItemFailures, JobLane, WaitingJobItems } from '@payments/core';
import { KnexTable } from '../knex-context';
import { INLINE } from '../sql-statements';
import { toDate, toMillis, toNumber, withoutUndefined, type BigIntValue } from '../mapping/column-values';

interface FailureRow {
  job: string;
  item_id: string;
  lane: JobLane;
  error_code: string;
  error_message: string | null;
  attempts: number;
  first_failed_at: BigIntValue;
  last_failed_at: BigIntValue;
  next_try_at: BigIntValue;
}

function toEntity(row: FailureRow): JobItemFailure {
  return withoutUndefined({
    job: row.job,
    lane: row.lane,
    itemId: row.item_id,
    errorCode: row.error_code,
    errorMessage: row.error_message ?? undefined,
    attempts: toNumber(row.attempts),
    firstFailedAt: toDate(row.first_failed_at),
    lastFailedAt: toDate(row.last_failed_at),
    nextTryAt: toDate(row.next_try_at),
  });
}

export class KnexJobItemFailures extends KnexTable<FailureRow> implements JobItemFailures {
  protected readonly tableName = 'job_item_failures';

  async forJob(job: string, lane: JobLane): Promise<JobItemFailure[]> {
    return (await this.rows(this.table().where({ job, lane }))).map(toEntity);
  }

  async save(failure: JobItemFailure): Promise<void> {
    const row: FailureRow = {
      job: failure.job,
      item_id: failure.itemId,
      lane: failure.lane,
      error_code: failure.errorCode,
      error_message: failure.errorMessage ?? null,
      attempts: failure.attempts,
      first_failed_at: toMillis(failure.firstFailedAt),
      last_failed_at: toMillis(failure.lastFailedAt),
      next_try_at: toMillis(failure.nextTryAt),
    };
    await this.changed(this.table().insert(row).onConflict(['job', 'item_id']).merge());
  }

  async clear(job: string, itemId: string): Promise<void> {
    await this.changed(this.table().where({ job, item_id: itemId }).delete());
  }

  async list(limit: number): Promise<JobItemFailure[]> {
    return (await this.rows(this.table().orderBy('last_failed_at', 'desc').orderBy('job', 'asc').limit(limit, INLINE))).map(toEntity);
  }

  async retryNow(itemId: string, now: Date): Promise<number> {
    return this.changed(
      this.table()
        .where({ item_id: itemId })
        .update({ next_try_at: toMillis(now) }),
    );
  }

  async countWaiting(now: Date): Promise<WaitingJobItems[]> {
    const rows = await this.rows<Pick<FailureRow, 'job' | 'lane'> & { count: BigIntValue }>(
      this.table().select('job', 'lane').count({ count: '*' }).where('next_try_at', '>', toMillis(now)).groupBy('job', 'lane'),
    );
    return rows.map((row) => ({ job: row.job, lane: row.lane, count: toNumber(row.count) }));
  }
}
