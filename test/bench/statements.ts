import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * The SQL one request of the service issued, as knex's 'query' / 'query-error' events saw it in
 * the service process: what the baseline replays so that both sides run the same statements.
 */
export interface Statement {
  readonly sql: string;
  readonly bindings: readonly unknown[];
  /** knex's transaction id when the statement ran inside one (BEGIN/COMMIT included). */
  readonly tx?: string;
  /** The statement failed (e.g. the idempotency claim's duplicate key on a replay). */
  readonly failed: boolean;
}

/** Counters of the statements the service ran, for the bench's "no writes" check. */
export interface StatementCounters {
  readonly statements: number;
  /** INSERT, UPDATE, DELETE or REPLACE statements attempted (failed ones included). */
  readonly writes: number;
}

const WRITE = /^\s*(insert|update|delete|replace)\b/i;
const TX_CONTROL = /^\s*(begin|commit|rollback|start transaction)\b/i;

interface QueryEvent {
  readonly sql: string;
  readonly bindings?: readonly unknown[];
  readonly __knexTxId?: string;
  readonly __knexQueryUid?: string;
}

/** Counts every statement of a knex instance and, while capturing, records them in order. */
export class StatementRecorder {
  private statements = 0;
  private writes = 0;
  private capture: Statement[] | undefined;
  // Failed statements are reported twice (query, then query-error): remember the last by uid.
  private readonly byUid = new Map<string, number>();

  constructor(knex: Knex) {
    knex.on('query', (event: QueryEvent) => {
      this.statements += 1;
      if (WRITE.test(event.sql)) this.writes += 1;
      if (this.capture === undefined) return;
      if (event.__knexQueryUid !== undefined) this.byUid.set(event.__knexQueryUid, this.capture.length);
      this.capture.push({ sql: event.sql, bindings: [...(event.bindings ?? [])], ...(event.__knexTxId ? { tx: event.__knexTxId } : {}), failed: false });
    });
    knex.on('query-error', (_error: unknown, event: QueryEvent) => {
      if (this.capture === undefined || event.__knexQueryUid === undefined) return;
      const index = this.byUid.get(event.__knexQueryUid);
      const statement = index === undefined ? undefined : this.capture[index];
      if (index !== undefined && statement) this.capture[index] = { ...statement, failed: true };
    });
  }

  counters(): StatementCounters {
    return { statements: this.statements, writes: this.writes };
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

/**
 * One request's statements as a template: the bindings that differed between two captured
 * requests are "volatile" (ids, keys, digests, timestamps). The baseline maps the request's own
 * inputs (idempotency key, order id, intent id) to the values its request carries and every other
 * volatile string to a fresh random one of the same shape, consistently across the statements
 * (the checkout session names the intent the statement before inserted) and inside longer
 * strings (the stored response body names the intent and the order).
 */
export interface StatementTemplate {
  readonly statements: readonly Statement[];
  /** Volatile strings, longest first. */
  readonly volatile: readonly string[];
  /** Volatile string → the input it stands for (its value comes from the baseline's request). */
  readonly inputs: Readonly<Record<string, string>>;
  /** Epoch-ms bindings that differed are shifted by (now − capturedAt). */
  readonly capturedAt: number;
  /** What the service answered, with the same substitutions applied. */
  readonly response: { readonly status: number; readonly body: string };
}

const ATOMIC = /^[A-Za-z0-9_\-.:+/=]{4,200}$/;
const EPOCH_MS_MIN = 1e12;

function sameShape(a: readonly Statement[], b: readonly Statement[]): string | undefined {
  if (a.length !== b.length) return `${a.length} vs ${b.length} statements`;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as Statement;
    const y = b[i] as Statement;
    if (x.sql !== y.sql) return `statement ${i + 1} differs: ${x.sql} / ${y.sql}`;
    if (x.failed !== y.failed || (x.tx === undefined) !== (y.tx === undefined) || x.bindings.length !== y.bindings.length) return `statement ${i + 1} differs in outcome, transaction or bindings`;
  }
  return undefined;
}

/**
 * Builds the template from two captures of the same kind of request (`first` and `second`), and
 * names the inputs of `second` (e.g. { idempotencyKey: 'bench-key-…' }).
 */
export function buildTemplate(
  first: readonly Statement[],
  second: readonly Statement[],
  inputs: Readonly<Record<string, string>>,
  response: { readonly status: number; readonly body: string },
  capturedAt: number,
): StatementTemplate {
  const mismatch = sameShape(first, second);
  if (mismatch !== undefined) throw new Error(`The service ran different statements for two requests of one scenario: ${mismatch}`);
  const volatile = new Set<string>();
  second.forEach((statement, i) => {
    statement.bindings.forEach((value, j) => {
      const before = (first[i] as Statement).bindings[j];
      if (typeof value === 'string' && value !== before && ATOMIC.test(value)) volatile.add(value);
    });
  });
  for (const value of Object.values(inputs)) volatile.add(value);
  const byValue: Record<string, string> = {};
  for (const [name, value] of Object.entries(inputs)) byValue[value] = name;
  return {
    statements: second,
    volatile: [...volatile].sort((a, b) => b.length - a.length),
    inputs: byValue,
    capturedAt,
    response,
  };
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random string of the same length and alphabet family as `value`, keeping an `xx_` prefix. */
function freshLike(value: string): string {
  const underscore = value.indexOf('_');
  const prefix = underscore > 0 && underscore < 8 ? value.slice(0, underscore + 1) : '';
  const length = value.length - prefix.length;
  if (/^[0-9a-f]+$/.test(value.slice(prefix.length))) return prefix + randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length);
  const bytes = randomBytes(length);
  let out = prefix;
  for (let i = 0; i < length; i += 1) out += BASE62[(bytes[i] as number) % 62];
  return out;
}

/** What the baseline runs per request: the template, with each binding's substitutions precomputed. */
export class StatementReplayer {
  private readonly plans: Array<{ readonly statement: Statement; readonly replaced: Array<readonly string[]> }>;

  constructor(private readonly template: StatementTemplate) {
    // For each binding, which volatile strings occur in it, so a request does only the needed work.
    this.plans = template.statements.map((statement) => ({
      statement,
      replaced: statement.bindings.map((value) => (typeof value === 'string' ? template.volatile.filter((v) => value.includes(v)) : [])),
    }));
  }

  private substitutions(inputs: Readonly<Record<string, string>>): Map<string, string> {
    const map = new Map<string, string>();
    for (const value of this.template.volatile) {
      const input = this.template.inputs[value];
      const given = input === undefined ? undefined : inputs[input];
      map.set(value, given ?? freshLike(value));
    }
    return map;
  }

  private bindings(plan: (typeof this.plans)[number], map: Map<string, string>, shift: number, volatileNumbers: boolean): unknown[] {
    return plan.statement.bindings.map((value, j) => {
      if (typeof value === 'number') return volatileNumbers && value > EPOCH_MS_MIN ? value + shift : value;
      const found = plan.replaced[j] as readonly string[];
      if (found.length === 0 || typeof value !== 'string') return value;
      let out = value;
      for (const v of found) out = out.split(v).join(map.get(v) as string);
      return out;
    });
  }

  /**
   * Runs the statements with fresh values on `knex`: the ones the service ran in a transaction in
   * one knex transaction (its BEGIN/COMMIT are knex's own), a failure where the service failed
   * (and nowhere else). Answers the service's response with the same substitutions.
   */
  async run(knex: Knex, inputs: Readonly<Record<string, string>>): Promise<{ status: number; body: string }> {
    const map = this.substitutions(inputs);
    const shift = Date.now() - this.template.capturedAt;
    let index = 0;
    while (index < this.plans.length) {
      const plan = this.plans[index] as (typeof this.plans)[number];
      const tx = plan.statement.tx;
      if (tx === undefined) {
        await runOne(knex, plan.statement, this.bindings(plan, map, shift, true));
        index += 1;
        continue;
      }
      const group: Array<(typeof this.plans)[number]> = [];
      while (index < this.plans.length && (this.plans[index] as (typeof this.plans)[number]).statement.tx === tx) {
        group.push(this.plans[index] as (typeof this.plans)[number]);
        index += 1;
      }
      await knex.transaction(async (trx) => {
        for (const member of group) {
          if (TX_CONTROL.test(member.statement.sql)) continue;
          await runOne(trx, member.statement, this.bindings(member, map, shift, true));
        }
      });
    }
    let body = this.template.response.body;
    for (const v of this.template.volatile) if (body.includes(v)) body = body.split(v).join(map.get(v) as string);
    return { status: this.template.response.status, body };
  }
}

/** A statement that failed in the service must fail here too, and only such a one. */
async function runOne(knex: Knex | Knex.Transaction, statement: Statement, bindings: unknown[]): Promise<void> {
  let failed = false;
  try {
    await knex.raw(statement.sql, bindings as Knex.RawBinding[]);
  } catch (error) {
    if (!statement.failed) throw error;
    failed = true;
  }
  if (statement.failed && !failed) throw new Error(`baseline: a statement that failed in the service succeeded: ${statement.sql}`);
}
