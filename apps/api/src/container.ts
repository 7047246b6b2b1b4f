import 'reflect-metadata';
import { connectRedis, disconnectRedis, type RedisClient } from '@payments/locks-redis';
import { createKnex, createSqlStorage, dialectOf, migrateLatest, type TraceContextStore } from '@payments/storage-sql';
import { Container, ContainerModule } from 'inversify';
import type { Config } from './config';
import { createLogger } from './logger';
import { ServiceMetrics } from './metrics';
import { AppConfig, AppLogger, AppMetrics, AppReadiness } from './modules/app-tokens';
import { CAPABILITIES } from './modules';
import { coordinationModule } from './modules/coordination.module';
import type { ContainerOverrides } from './modules/overrides';
import { providersModule } from './modules/providers.module';
import { runtimeModule } from './modules/runtime.module';
import { storageModule } from './modules/storage.module';
import type { Key } from './modules/wiring';
import { bindValue } from './modules/wiring';
import { Readiness } from './readiness';
import { tracingModule } from './modules/tracing.module';
import { loadTracing, type Tracing } from './tracing/tracing';

export * from './modules/app-tokens';
export type { ContainerOverrides } from './modules/overrides';
export { simulatorCallbackSecret } from './modules/providers.module';

export interface AppContainer {
  readonly container: Container;
  /** The process's tracing, when it is on (OTEL_* variables, or a test's); undefined otherwise. */
  readonly tracing?: Tracing;
  /** Where job items find the trace that queued them; only while tracing is on. */
  readonly traceContexts?: TraceContextStore;
  get<T>(key: Key<T>): T;
  /** Closes pools and connections; the process can then exit on its own. */
  close(): Promise<void>;
}

/**
 * Runs the migrations on a pool of their own whose sessions have no statement timeout: a migration
 * may rewrite a large table, and the limit that keeps requests from waiting on a stalled server
 * must not cut an ALTER half way. SQLite has no statement timeout (and an in-memory database lives
 * in its one connection), so it migrates on the service's own instance.
 */
async function migrate(knex: ReturnType<typeof createKnex>, config: Config): Promise<void> {
  if (dialectOf(knex) !== 'mysql') return migrateLatest(knex);
  const migrator = createKnex(config.databaseUrl, { ...config.database, statementTimeoutMs: 0 });
  try {
    await migrateLatest(migrator);
  } finally {
    await migrator.destroy();
  }
}

/**
 * The composition root: the only code that picks adapters (SQLite or MySQL by the database URL,
 * Redis or in-process by whether a Redis URL is set). The container is assembled from one module
 * per adapter family and one per capability (apps/api/src/modules, listed in CAPABILITIES); each
 * binds what it owns.
 */
export async function buildContainer(config: Config, overrides: ContainerOverrides = {}): Promise<AppContainer> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  // Off unless the OTEL_* variables name an exporter: then, and only then, OpenTelemetry is loaded.
  const ownTracing = overrides.tracing === undefined && config.tracing ? await loadTracing(config.tracing, 'payments') : undefined;
  const tracing = overrides.tracing ?? ownTracing;
  const knex = createKnex(config.databaseUrl, config.database);
  let redis: RedisClient | undefined;
  try {
    await migrate(knex, config);
    if (config.redisUrl) redis = await connectRedis(config.redisUrl, { onError: (err) => logger.warn({ err }, 'redis connection error') });
  } catch (error) {
    await knex.destroy();
    await ownTracing?.shutdown();
    throw error;
  }
  const storage = createSqlStorage(knex, tracing ? { statementTracer: tracing.statements } : {});
  const metrics = new ServiceMetrics();
  const container = new Container();
  container.loadSync(
    new ContainerModule((options) => {
      bindValue(options, AppConfig, config);
      bindValue(options, AppLogger, logger);
      bindValue(options, AppMetrics, metrics);
      bindValue(options, AppReadiness, new Readiness(knex, redis));
    }),
    // Adapter families.
    storageModule(storage, knex),
    runtimeModule(config, logger, metrics, overrides),
    coordinationModule(redis, config.redisKeyPrefix),
    providersModule(config, knex, logger, overrides, tracing),
    ...CAPABILITIES.flatMap((capability) => (capability.bindings ? [capability.bindings(config)] : [])),
    ...(tracing ? [tracingModule(tracing, storage.traceContexts)] : []),
  );

  let closed = false;
  return {
    container,
    ...(tracing ? { tracing, traceContexts: storage.traceContexts } : {}),
    get: <T>(key: Key<T>): T => container.get<T>(key),
    close: async (): Promise<void> => {
      // Idempotent: a test (or a stop racing a signal) may close twice.
      if (closed) return;
      closed = true;
      await metrics.close();
      if (redis) await disconnectRedis(redis);
      await knex.destroy();
      // Flushes the spans still buffered; a test's own tracing is the test's to end.
      await ownTracing?.shutdown();
    },
  };
}
