import { FailureCounter, LockManager, RateLimiter } from '@payments/core';
import { InMemoryFailureCounter, InMemoryLockManager, InMemoryRateLimiter } from '@payments/in-memory';
import { RedisFailureCounter, RedisLockManager, RedisRateLimiter, type RedisClient } from '@payments/locks-redis';
import { ContainerModule } from 'inversify';
import { bindValue } from './wiring';

/** Locks, rate limits and failure counters: shared through Redis when it is configured, else in this process. */
export const coordinationModule = (redis: RedisClient | undefined, keyPrefix: string): ContainerModule =>
  new ContainerModule((options) => {
    bindValue(options, LockManager, redis ? new RedisLockManager(redis, { keyPrefix: `${keyPrefix}lock:` }) : new InMemoryLockManager());
    bindValue(options, RateLimiter, redis ? new RedisRateLimiter(redis, { keyPrefix: `${keyPrefix}rate:` }) : new InMemoryRateLimiter());
    bindValue(options, FailureCounter, redis ? new RedisFailureCounter(redis, { keyPrefix: `${keyPrefix}failures:` }) : new InMemoryFailureCounter());
  });
