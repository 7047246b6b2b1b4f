/**
 * A FIFO mutex for the in-memory storage: units of work run one at a time, like transactions
 * on the single SQLite connection, so tests see the same isolation.
 */
export class StorageMutex {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `fn` after every earlier holder finished, whether they succeeded or not. */
  runExclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(() => fn());
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
