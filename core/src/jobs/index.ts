/** Background jobs: every job runs its items through one runner that records, skips and retries a failing item on its own. */
export * from './ports/job-item-failures.port';
export * from './use-cases/item-job';
export * from './use-cases/run-item-jobs.use-case';
