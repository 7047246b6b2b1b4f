import type { Config } from './config';
import { AppLogger, AppMetrics, type AppContainer } from './container';
import type { ServiceMetrics } from './metrics';
import type { Logger } from './logger';
import { createServer } from './server';

/** Starts the HTTP server and stops it cleanly on SIGTERM/SIGINT (in-flight requests finish). */
export async function startApi(app: AppContainer, config: Config, onStop: () => Promise<void> = async () => undefined): Promise<void> {
  const logger = app.get<Logger>(AppLogger);
  const server = await createServer(app);
  await server.start();
  logger.info({ url: server.info.uri, base_url: config.baseUrl }, 'API listening');
  // Idempotent: with `--with-api` the worker already started it, and the process keeps one.
  await app.get<ServiceMetrics>(AppMetrics).listen({ host: config.metricsHost, port: config.metricsPort }, logger);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server.stop({ timeout: 10_000 });
    await onStop();
    await app.close();
    logger.info('stopped');
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
