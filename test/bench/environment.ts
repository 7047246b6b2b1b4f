import { randomBytes } from 'node:crypto';

/**
 * The caller's environment minus anything that would change what the servers do (a Redis URL,
 * another database, a log level), so the bench measures the configuration it reports.
 */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('PAYMENTS_') || name.startsWith('BENCH_') || name === 'LOG_LEVEL' || name === 'NODE_ENV') continue;
    env[name] = value;
  }
  return env;
}

/**
 * The environment production would run the API with, pointed at the bench database. Rate limits
 * are off for test keys (they would cap the load, not measure it); logs are off (no terminal I/O
 * in the measurement). With a Redis URL, locks, rate limiter and failure counters are Redis's
 * (production's shape, under a key prefix of this run's own); without, the in-process ones.
 */
export function serviceEnv(databaseUrl: string, redisUrl: string | undefined): NodeJS.ProcessEnv {
  return {
    ...inheritedEnv(),
    NODE_ENV: 'production',
    PAYMENTS_DATABASE_URL: databaseUrl,
    PAYMENTS_HOST: '127.0.0.1',
    PAYMENTS_PORT: '0',
    PAYMENTS_RATE_LIMIT_TEST: '0',
    PAYMENTS_MASTER_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    ...(redisUrl === undefined ? {} : { PAYMENTS_REDIS_URL: redisUrl, PAYMENTS_REDIS_PREFIX: `bench:${randomBytes(6).toString('hex')}:` }),
  };
}

/** The floor child reads its (empty) database from this. */
export function floorEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return { ...inheritedEnv(), NODE_ENV: 'production', BENCH_FLOOR_DATABASE_URL: databaseUrl };
}
