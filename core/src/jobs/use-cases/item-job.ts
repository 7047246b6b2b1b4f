import type { JobLane } from '../ports/job-item-failures.port';

/**
 * A background job as a list of items, each handled on its own. The runner (`RunItemJobs`) owns
 * what every job needs alike: skipping items that failed until their next try, recording a
 * failure without ending the pass, and lanes that keep test work off live work's path.
 */
export interface ItemJob<T, R = boolean> {
  /** Stable name: the metrics' `job` label, the lock's key, the failure record's `job`. */
  readonly name: string;
  /** The lanes it runs in: `live` and `test` for money, `platform` for the platform's own chores. */
  readonly lanes: readonly JobLane[];
  /**
   * Items due now in a lane, in the order they should be handled: up to `limit` of them not
   * counting any in `deferred` (failed items whose next try is not due; the runner skips them).
   * A query asks for `limit + deferred.size`; a job that leases what it returns leaves them out
   * instead, so it never leases more than it handles.
   */
  due(lane: JobLane, limit: number, deferred: ReadonlySet<string>): Promise<readonly T[]>;
  /** The id an item is recorded under when it fails (an intent, a settlement, a notice id …). */
  idOf(item: T): string;
  /**
   * Handles one item in transactions of its own. A throw rolls back only this item's work: the
   * runner records it as failed and goes on with the next.
   */
  handle(item: T, pass: JobPass): Promise<R>;
  /** Whether an outcome did something (counted and logged); default: a truthy outcome. */
  progressed?(outcome: R, item: T): boolean;
  /**
   * How many items may be handled at once (default 1): for items that mostly wait on the network,
   * such as webhook POSTs. Each item still runs and fails on its own.
   */
  readonly concurrency?: number;
}

/**
 * What one pass remembers across its items: a dependency that did not answer (a channel, the
 * payout provider) is not asked again until the next pass, so one slow dependency costs one
 * timeout per pass, not one per item.
 */
export class JobPass {
  private readonly down = new Set<string>();
  private readonly memos = new Map<string, unknown>();

  markDown(dependency: string): void {
    this.down.add(dependency);
  }

  isDown(dependency: string): boolean {
    return this.down.has(dependency);
  }

  /** What `make` gives for `key`, made once per pass (an endpoint read once for all its deliveries). */
  memo<V>(key: string, make: () => V): V {
    if (!this.memos.has(key)) this.memos.set(key, make());
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a pass asks each key of one kind of value, so what is stored under it is a V.
    return this.memos.get(key) as V;
  }
}
