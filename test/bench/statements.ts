import type { Knex } from 'knex';

/** One statement of the service as knex's 'query' / 'query-error' events saw it in the service process. */
export interface Statement {
  readonly sql: string;
  /** knex's transaction id when the statement ran inside one (BEGIN/COMMIT included). */
  readonly tx?: string;
  /** The statement failed (e.g. a duplicate-key claim). */
  readonly failed: boolean;
}

/** Counters of the statements a knex instance ran, for the bench's checks and per-request figures. */
export interface StatementCounters {
  /** Every statement, BEGIN and COMMIT included. */
  readonly statements: number;
  /** INSERT, UPDATE, DELETE or REPLACE statements attempted (failed ones included). */
  readonly writes: number;
  /** COMMITs: each one a durable write to the database's log. */
  readonly commits: number;
}

const WRITE = /^\s*(insert|update|delete|replace)\b/i;
const COMMIT = /^\s*commit\b/i;

interface QueryEvent {
  readonly sql: string;
  readonly __knexTxId?: string;
  readonly __knexQueryUid?: string;
}

/**
 * The durable commits of a captured request: each COMMIT, and each successful write outside a
 * transaction (it commits on its own, with the same flush of the database's log).
 */
export function durableCommits(statements: readonly Statement[]): number {
  return statements.filter((s) => COMMIT.test(s.sql) || (s.tx === undefined && !s.failed && WRITE.test(s.sql))).length;
}

/** Counts every statement of a knex instance and, while capturing, records them in order. */
export class StatementRecorder {
  private statements = 0;
  private writes = 0;
  private commits = 0;
  private capture: Statement[] | undefined;
  // Failed statements are reported twice (query, then query-error): remember the last by uid.
  private readonly byUid = new Map<string, number>();

  constructor(knex: Knex) {
    knex.on('query', (event: QueryEvent) => {
      this.statements += 1;
      if (WRITE.test(event.sql)) this.writes += 1;
      else if (COMMIT.test(event.sql)) this.commits += 1;
      if (this.capture === undefined) return;
      if (event.__knexQueryUid !== undefined) this.byUid.set(event.__knexQueryUid, this.capture.length);
      this.capture.push({ sql: event.sql, ...(event.__knexTxId ? { tx: event.__knexTxId } : {}), failed: false });
    });
    knex.on('query-error', (_error: unknown, event: QueryEvent) => {
      if (this.capture === undefined || event.__knexQueryUid === undefined) return;
      const index = this.byUid.get(event.__knexQueryUid);
      const statement = index === undefined ? undefined : this.capture[index];
      if (index !== undefined && statement) this.capture[index] = { ...statement, failed: true };
    });
  }

  counters(): StatementCounters {
    return { statements: this.statements, writes: this.writes, commits: this.commits };
  }

  startCapture(): void {
    this.capture = [];
    this.byUid.clear();
  }

  stopCapture(): Statement[] {
    const captured = this.capture ?? [];
    this.capture = undefined;
    return captured;
  }
}
