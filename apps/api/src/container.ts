import 'reflect-metadata';
import {
  ApiKeyRepository,
  AuthenticateApiKey,
  CancelPaymentIntent,
  CheckoutSessionRepository,
  Clock,
  CreateMerchant,
  CreatePaymentIntent,
  Digest,
  EventOutbox,
  ExpirePaymentIntents,
  GetPaymentIntent,
  IdempotencyStore,
  IssueApiKey,
  ListEvents,
  ListPaymentIntents,
  LockManager,
  MerchantRepository,
  PasswordHasher,
  PaymentIntentRepository,
  RandomSource,
  RateLimiter,
  ResolveApiVersion,
  RunIdempotently,
  SetLiveMode,
  UnitOfWork,
  UserRepository,
  type StatusChangeDeps,
} from '@payments/core';
import { InMemoryLockManager, InMemoryRateLimiter } from '@payments/in-memory';
import { connectRedis, disconnectRedis, RedisLockManager, RedisRateLimiter, type RedisClient } from '@payments/locks-redis';
import { CryptoDigest, CryptoRandomSource, ScryptPasswordHasher, SystemClock } from '@payments/node-runtime';
import { createKnex, createSqlStorage, migrateLatest } from '@payments/storage-sql';
import { Container, type ResolutionContext } from 'inversify';
import type { Config } from './config';
import { createLogger, type Logger } from './logger';

/** Tokens for what the composition root provides besides core's ports. */
export const AppConfig = Symbol('AppConfig');
export const AppLogger = Symbol('AppLogger');
export const StatusChange = Symbol('StatusChange');

/** Replacements for tests: a fake clock, a cheaper password hash. */
export interface ContainerOverrides {
  readonly clock?: Clock;
  readonly passwordHasher?: PasswordHasher;
  readonly logger?: Logger;
}

export interface AppContainer {
  readonly container: Container;
  get<T>(id: symbol | (abstract new (...args: never[]) => T)): T;
  /** Closes pools and connections; the process can then exit on its own. */
  close(): Promise<void>;
}

/**
 * The composition root: the only code that picks adapters (SQLite or MySQL by the database URL,
 * Redis or in-process by whether a Redis URL is set) and hands them to core's use cases.
 */
export async function buildContainer(config: Config, overrides: ContainerOverrides = {}): Promise<AppContainer> {
  const container = new Container();
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const knex = createKnex(config.databaseUrl);
  let redis: RedisClient | undefined;
  try {
    await migrateLatest(knex);
    if (config.redisUrl) redis = await connectRedis(config.redisUrl, { onError: (err) => logger.warn({ err }, 'redis connection error') });
  } catch (error) {
    await knex.destroy();
    throw error;
  }
  const storage = createSqlStorage(knex);

  const constant = <T>(id: symbol, value: T): void => {
    container.bind<T>(id).toConstantValue(value);
  };
  constant(AppConfig, config);
  constant(AppLogger, logger);
  constant(Clock, overrides.clock ?? new SystemClock());
  constant(RandomSource, new CryptoRandomSource());
  constant(Digest, new CryptoDigest());
  constant(PasswordHasher, overrides.passwordHasher ?? new ScryptPasswordHasher());
  constant(UnitOfWork, storage.uow);
  constant(MerchantRepository, storage.merchants);
  constant(UserRepository, storage.users);
  constant(ApiKeyRepository, storage.apiKeys);
  constant(PaymentIntentRepository, storage.intents);
  constant(CheckoutSessionRepository, storage.checkoutSessions);
  constant(EventOutbox, storage.events);
  constant(IdempotencyStore, storage.idempotency);
  const keyPrefix = config.redisKeyPrefix;
  constant(LockManager, redis ? new RedisLockManager(redis, { keyPrefix: `${keyPrefix}lock:` }) : new InMemoryLockManager());
  constant(RateLimiter, redis ? new RedisRateLimiter(redis, { keyPrefix: `${keyPrefix}rate:` }) : new InMemoryRateLimiter());

  const factory = <T>(id: symbol | (abstract new (...args: never[]) => T), build: (ctx: ResolutionContext) => T): void => {
    container.bind<T>(id).toDynamicValue(build).inSingletonScope();
  };
  factory<StatusChangeDeps>(StatusChange, (ctx) => ({
    intents: ctx.get(PaymentIntentRepository),
    events: ctx.get(EventOutbox),
    clock: ctx.get(Clock),
    random: ctx.get(RandomSource),
  }));
  factory(CreatePaymentIntent, (ctx) =>
    new CreatePaymentIntent(
      ctx.get(UnitOfWork),
      ctx.get(PaymentIntentRepository),
      ctx.get(CheckoutSessionRepository),
      ctx.get(Clock),
      ctx.get(RandomSource),
      ctx.get(Digest),
      { publicBaseUrl: config.baseUrl },
    ),
  );
  factory(GetPaymentIntent, (ctx) => new GetPaymentIntent(ctx.get(PaymentIntentRepository)));
  factory(ListPaymentIntents, (ctx) => new ListPaymentIntents(ctx.get(PaymentIntentRepository)));
  factory(CancelPaymentIntent, (ctx) => new CancelPaymentIntent(ctx.get(UnitOfWork), ctx.get(StatusChange)));
  factory(ExpirePaymentIntents, (ctx) => new ExpirePaymentIntents(ctx.get(UnitOfWork), ctx.get(StatusChange)));
  factory(ListEvents, (ctx) => new ListEvents(ctx.get(EventOutbox)));
  factory(AuthenticateApiKey, (ctx) => new AuthenticateApiKey(ctx.get(ApiKeyRepository), ctx.get(MerchantRepository), ctx.get(Digest)));
  factory(ResolveApiVersion, (ctx) => new ResolveApiVersion(ctx.get(MerchantRepository)));
  factory(RunIdempotently, (ctx) => new RunIdempotently(ctx.get(IdempotencyStore), ctx.get(UnitOfWork), ctx.get(Clock), ctx.get(RandomSource)));
  factory(IssueApiKey, (ctx) =>
    new IssueApiKey(ctx.get(ApiKeyRepository), ctx.get(MerchantRepository), ctx.get(Clock), ctx.get(RandomSource), ctx.get(Digest)),
  );
  factory(CreateMerchant, (ctx) =>
    new CreateMerchant(
      ctx.get(UnitOfWork),
      ctx.get(MerchantRepository),
      ctx.get(UserRepository),
      ctx.get(IssueApiKey),
      ctx.get(PasswordHasher),
      ctx.get(Clock),
      ctx.get(RandomSource),
    ),
  );
  factory(SetLiveMode, (ctx) => new SetLiveMode(ctx.get(MerchantRepository)));

  return {
    container,
    get: <T>(id: symbol | (abstract new (...args: never[]) => T)): T => container.get<T>(id),
    close: async (): Promise<void> => {
      if (redis) await disconnectRedis(redis);
      await knex.destroy();
    },
  };
}
