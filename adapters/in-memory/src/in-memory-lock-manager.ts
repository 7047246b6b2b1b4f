import { LockBusyError, type LockManager } from '@payments/core';

const DEFAULT_WAIT_MS = 5_000;

interface Holder {
  readonly token: symbol;
  readonly expiry: NodeJS.Timeout;
}

interface Waiter {
  readonly ttlMs: number;
  readonly grant: (token: symbol) => void;
  readonly timer: NodeJS.Timeout;
}

interface KeyState {
  holder: Holder | undefined;
  readonly waiters: Waiter[];
}

/**
 * Locks within one process (the embedded mode and tests). A lock passes straight from its holder
 * to the longest waiter, so a stream of newcomers cannot starve someone who has been waiting.
 */
export class InMemoryLockManager implements LockManager {
  private readonly keys = new Map<string, KeyState>();

  async withLock<T>(key: string, ttlMs: number, fn: () => Promise<T>, options: { waitMs?: number } = {}): Promise<T> {
    if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) {
      throw new RangeError(`Lock TTL must be a positive number of milliseconds, got ${ttlMs}.`);
    }
    const token = await this.acquire(key, ttlMs, Math.max(0, options.waitMs ?? DEFAULT_WAIT_MS));
    try {
      return await fn();
    } finally {
      this.release(key, token);
    }
  }

  private acquire(key: string, ttlMs: number, waitMs: number): Promise<symbol> {
    let state = this.keys.get(key);
    if (state === undefined) {
      state = { holder: undefined, waiters: [] };
      this.keys.set(key, state);
    }
    if (state.holder === undefined) {
      return Promise.resolve(this.hold(key, state, ttlMs));
    }
    if (waitMs === 0) {
      return Promise.reject(busy());
    }
    const queue = state.waiters;
    return new Promise<symbol>((resolve, reject) => {
      const waiter: Waiter = {
        ttlMs,
        grant: resolve,
        timer: setTimeout(() => {
          const index = queue.indexOf(waiter);
          if (index !== -1) queue.splice(index, 1);
          reject(busy());
        }, waitMs),
      };
      queue.push(waiter);
    });
  }

  private hold(key: string, state: KeyState, ttlMs: number): symbol {
    const token = Symbol(key);
    // The TTL stands in for a crashed holder; unref so a forgotten lock never keeps the process up.
    const expiry = setTimeout(() => this.release(key, token), ttlMs);
    expiry.unref();
    state.holder = { token, expiry };
    return token;
  }

  /** Frees the lock only if `token` still holds it: a holder that outlived its TTL frees nothing. */
  private release(key: string, token: symbol): void {
    const state = this.keys.get(key);
    if (state?.holder?.token !== token) return;
    clearTimeout(state.holder.expiry);
    state.holder = undefined;
    const next = state.waiters.shift();
    if (next === undefined) {
      // Dropping idle keys keeps memory bounded by the number of locks in use, not ever used.
      this.keys.delete(key);
      return;
    }
    clearTimeout(next.timer);
    next.grant(this.hold(key, state, next.ttlMs));
  }
}

function busy(): LockBusyError {
  return new LockBusyError();
}
