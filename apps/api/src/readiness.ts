import { databaseNodeState, isDatabaseNodeNotReadyError, pendingMigrations, pingDatabase } from '@payments/storage-sql';
import type { RedisClient } from '@payments/locks-redis';

/** knex's type, as storage-sql takes it (the API does not depend on knex itself). */
type Knex = Parameters<typeof pingDatabase>[0];

/**
 * One dependency's state: names and words only, never a URL, host or error text (they may hold
 * credentials). `not_synced`: the database answers but is a Galera node that is not synced with
 * its cluster (or not in its primary component), so what it answers may be stale.
 */
export type CheckState = 'ok' | 'unreachable' | 'pending' | 'not_configured' | 'not_synced';

export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: { readonly database: CheckState; readonly migrations: CheckState; readonly redis: CheckState };
}

/** A probe must answer well within a load balancer's timeout, even when a dependency hangs. */
const CHECK_TIMEOUT_MS = 2_000;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `GET /health/ready`: can this process keep its promises now? Database, schema, Redis. */
export class Readiness {
  constructor(
    private readonly knex: Knex,
    private readonly redis: RedisClient | undefined,
  ) {}

  async check(): Promise<ReadinessReport> {
    const [database, migrations, redis] = await Promise.all([this.database(), this.migrations(), this.redisState()]);
    const ready = database === 'ok' && migrations === 'ok' && (redis === 'ok' || redis === 'not_configured');
    return { ready, checks: { database, migrations, redis } };
  }

  private async database(): Promise<CheckState> {
    try {
      return await within(
        pingDatabase(this.knex).then(() => databaseNodeState(this.knex)),
        CHECK_TIMEOUT_MS,
      );
    } catch (error) {
      return isDatabaseNodeNotReadyError(error) ? 'not_synced' : 'unreachable';
    }
  }

  private async migrations(): Promise<CheckState> {
    try {
      return (await within(pendingMigrations(this.knex), CHECK_TIMEOUT_MS)).length === 0 ? 'ok' : 'pending';
    } catch {
      return 'unreachable';
    }
  }

  private async redisState(): Promise<CheckState> {
    if (this.redis === undefined) return 'not_configured';
    try {
      // Commands fail at once while disconnected (no offline queue), so this never waits on a reconnect.
      await within(this.redis.ping(), CHECK_TIMEOUT_MS);
      return 'ok';
    } catch {
      return 'unreachable';
    }
  }
}
