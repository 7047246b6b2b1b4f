import type { AppContainer } from '@payments/api';
import { RunItemJobs, type ItemJob, type ItemPassResult, type JobLane } from '@payments/core';
import type { Job } from './scheduler';

/** How many items one job handles per tick, so a backlog drains over ticks without long passes. */
export const BATCH = 200;

/**
 * A scheduler job that runs an item job's lane through the shared runner: each item on its own,
 * failures recorded and skipped. `onPass` sees each pass's outcomes (logs, metrics).
 */
export function itemJob<T, R>(
  app: AppContainer,
  job: ItemJob<T, R>,
  lane: JobLane,
  options: { everyMs?: number; limit?: number; onPass?: (result: ItemPassResult<T, R>) => void } = {},
): Job {
  const runner = app.get(RunItemJobs);
  return {
    name: job.name,
    everyMs: options.everyMs ?? 0,
    run: async () => {
      const result = await runner.run(job, lane, options.limit ?? BATCH);
      options.onPass?.(result);
      return result.progressed;
    },
  };
}
