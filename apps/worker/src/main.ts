import {
  AppLogger,
  AppMetrics,
  buildContainer,
  describeDemoMerchant,
  ensureDemoMerchant,
  loadConfig,
  startApi,
  type Logger,
  type ServiceMetrics,
} from '@payments/api';
import { LockManager } from '@payments/core';
import { workerLanes } from './jobs';
import { enableWorkerMetrics, jobMetrics } from './observability';
import { Scheduler } from './scheduler';

/**
 * `npm run start:worker`: timers and background jobs. With `--with-api` (what `npm start` runs)
 * the same process serves the HTTP API too: the embedded default, one process, no Redis.
 */
async function main(): Promise<void> {
  const withApi = process.argv.includes('--with-api');
  const config = loadConfig();
  const app = await buildContainer(config);
  const logger = app.get<Logger>(AppLogger);
  const metrics = app.get<ServiceMetrics>(AppMetrics);
  enableWorkerMetrics(app);
  // Before the API: `--with-api` then serves API and worker series from this one server.
  await metrics.listen({ host: config.metricsHost, port: config.metricsPort }, logger);
  const scheduler = new Scheduler(workerLanes(app), config.tickMs, logger, app.get<LockManager>(LockManager), jobMetrics(metrics));
  if (withApi) {
    const demo = await ensureDemoMerchant(app);
    if (demo) process.stdout.write(describeDemoMerchant(demo, config.baseUrl));
    await startApi(app, config, () => scheduler.stop());
  } else {
    const stop = async (): Promise<void> => {
      await scheduler.stop();
      await app.close();
    };
    process.once('SIGTERM', () => void stop());
    process.once('SIGINT', () => void stop());
  }
  scheduler.start();
  logger.info({ tick_ms: config.tickMs }, 'worker started');
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
