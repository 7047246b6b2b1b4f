import { Clock, JobItemFailures, RunItemJobs, type JobItemObserver } from '@payments/core';
import { ContainerModule } from 'inversify';
import { unavailableOf } from '../http/unavailable';
import { AppLogger, AppMetrics } from './app-tokens';
import { bindClass, built, resolve, value } from './wiring';
import type { Capability } from './capability';

/**
 * Every background job runs its items through this one runner: a failing item is recorded,
 * counted and logged (id and code only), and skipped until its next try.
 */
export const jobsModule: Capability = {
  bindings: () =>
    new ContainerModule((options) => {
      bindClass(options, RunItemJobs, {
        failures: JobItemFailures,
        clock: Clock,
        isOutage: value((error: unknown) => unavailableOf(error) !== undefined),
        observer: built((ctx) => {
          const metrics = resolve(ctx, AppMetrics);
          const logger = resolve(ctx, AppLogger);
          const observer: JobItemObserver = {
            itemFailed: (failure) => {
              metrics.jobItemFailures.inc({ job: failure.job, lane: failure.lane, code: failure.errorCode });
              logger.warn(
                {
                  job: failure.job,
                  lane: failure.lane,
                  item: failure.itemId,
                  error_code: failure.errorCode,
                  attempts: failure.attempts,
                  next_try_at: failure.nextTryAt.toISOString(),
                },
                'job item failed; skipped until its next try',
              );
            },
          };
          return observer;
        }),
      });
    }),
  routes: [],
};
