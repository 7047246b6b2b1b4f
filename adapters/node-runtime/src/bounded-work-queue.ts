import { CoreError } from '@payments/core';

export interface BoundedWorkQueueOptions {
  /** How many tasks run at once. */
  readonly concurrency: number;
  /** How many tasks may wait for a turn; one more is refused at once. */
  readonly maxWaiting: number;
  /** What the refusal says; a 503 `api_error` with Retry-After: 1. */
  readonly busyMessage: string;
}

/**
 * Runs at most `concurrency` tasks at a time, first come first served, with at most `maxWaiting`
 * waiting; past that, a task is refused with CoreError `unavailable` rather than queued without
 * end. Twenty lines of our own because the maintained queue libraries (p-queue, p-limit) are
 * ESM-only now and this runtime package is CommonJS.
 */
export class BoundedWorkQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: BoundedWorkQueueOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1)
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${options.concurrency}`);
    if (!Number.isInteger(options.maxWaiting) || options.maxWaiting < 0)
      throw new RangeError(`maxWaiting must be a whole number of at least 0, got ${options.maxWaiting}`);
  }

  /** Tasks running now and tasks waiting for a turn. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrency) {
      if (this.waiting.length >= this.options.maxWaiting) {
        throw new CoreError('api_error', 'unavailable', this.options.busyMessage, { retryAfterSeconds: 1 });
      }
      // The finishing task hands its turn over directly, so `running` never dips and lets a newcomer jump the line.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
