import { unavailableOf, type Logger } from '@payments/api';
import { LockBusyError, type JobLane, type LockManager } from '@payments/core';

/** How long one worker may hold a job before another may presume it dead and run it. */
const JOB_LEASE_MS = 60_000;

/** One periodic piece of work; it must be safe to run in several workers at once. */
export interface Job {
  readonly name: string;
  /** Run at most once every this many milliseconds (at least one tick). */
  readonly everyMs: number;
  /**
   * False for a job that shares its work out safely on its own (the webhook relay claims
   * deliveries with leases): every worker then runs it at once instead of one at a time.
   */
  readonly exclusive?: boolean;
  run(): Promise<number>;
  /**
   * Asked after a run that succeeded: true when the job stopped with work still due (a relay
   * drain cut short so the lane's other jobs get their turn). The lane's next pass then starts at
   * once instead of a tick later, so a backlog is worked through without a tick's pause each time.
   */
  readonly moreDue?: () => boolean;
}

/** Jobs that run one after another, on a loop of their own. */
export interface Lane {
  readonly name: JobLane;
  readonly jobs: readonly Job[];
}

/** Sees every run of a job (the worker's metrics); optional so tests and tools need none. */
export interface JobObserver {
  /**
   * `lagMs`: how much later than due the run started (due: the previous start plus the job's
   * interval, at least one tick; a first run is never late). `busy`: another worker held the job.
   */
  jobRan(job: string, lane: JobLane, run: { lagMs: number; durationMs: number; outcome: 'ok' | 'failed' | 'busy' }): void;
}

/**
 * Runs each lane's jobs one after another every tick, each lane on its own loop, so a slow or
 * failing test-mode pass never delays live money (and the platform's chores delay neither). A
 * lane's pass never overlaps its previous one, and a failing job is logged and retried on a later
 * tick rather than stopping the others. Each job runs under a lock of its lane and name, so of
 * several workers one runs it at a time and the others skip it that tick.
 */
export class Scheduler {
  private readonly loops: LaneLoop[];
  private started = false;

  constructor(lanes: readonly Lane[], tickMs: number, logger: Logger, locks: LockManager, observer?: JobObserver) {
    this.loops = lanes.map((lane) => new LaneLoop(lane, tickMs, logger, locks, observer));
  }

  start(): void {
    this.started = true;
    for (const loop of this.loops) loop.start();
  }

  /** Waits for the passes under way, then stops. */
  async stop(): Promise<void> {
    if (!this.started) return;
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }

  /** One pass of every lane, the lanes at once; exposed so tests can drive the worker without timers. */
  async pass(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.pass()));
  }
}

class LaneLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly lastRun = new Map<string, number>();

  constructor(
    private readonly lane: Lane,
    private readonly tickMs: number,
    private readonly logger: Logger,
    private readonly locks: LockManager,
    private readonly observer?: JobObserver,
  ) {}

  start(): void {
    const loop = (): void => {
      let again = false;
      this.running = this.pass()
        .then((moreDue) => {
          again = moreDue;
        })
        .finally(() => {
          if (this.running !== undefined) this.timer = setTimeout(loop, again ? 0 : this.tickMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    const running = this.running;
    this.running = undefined;
    await running;
    clearTimeout(this.timer);
  }

  /** Runs the lane's due jobs; true when one of them left work due (see `Job.moreDue`). */
  async pass(): Promise<boolean> {
    const lane = this.lane.name;
    let moreDue = false;
    for (const job of this.lane.jobs) {
      const now = Date.now();
      const previous = this.lastRun.get(job.name);
      if (now - (previous ?? 0) < job.everyMs) continue;
      this.lastRun.set(job.name, now);
      const lagMs = previous === undefined ? 0 : Math.max(0, now - (previous + Math.max(job.everyMs, this.tickMs)));
      const ran = (outcome: 'ok' | 'failed' | 'busy'): void => this.observer?.jobRan(job.name, lane, { lagMs, durationMs: Date.now() - now, outcome });
      try {
        const count =
          job.exclusive === false ? await job.run() : await this.locks.withLock(`job:${lane}:${job.name}`, JOB_LEASE_MS, () => job.run(), { waitMs: 0 });
        ran('ok');
        if (job.moreDue?.() === true) moreDue = true;
        if (count > 0) this.logger.info({ job: job.name, lane, count }, 'job done');
      } catch (error) {
        // Busy: another worker holds the job this tick.
        if (error instanceof LockBusyError) {
          ran('busy');
          continue;
        }
        ran('failed');
        // The database or Redis is down: expected during an outage, and the next tick tries again.
        if (unavailableOf(error)) this.logger.warn({ job: job.name, lane, err: error }, 'job skipped: a dependency is unavailable');
        else this.logger.error({ job: job.name, lane, err: error }, 'job failed');
      }
    }
    return moreDue;
  }
}
