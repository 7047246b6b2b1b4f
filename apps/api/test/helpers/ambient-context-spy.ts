import asyncHooks, { AsyncLocalStorage } from 'node:async_hooks';

/** How often the process entered or read an async context, or made an async hook, since `install`. */
export interface AmbientContextCounts {
  run: number;
  enterWith: number;
  getStore: number;
  createHook: number;
}

/**
 * Counts every use of AsyncLocalStorage and every async hook made in this process (a test
 * worker of its own). On Node 20 one `run` or `enterWith` turns on promise hooks for the whole
 * process; the request path must never pay them. Installed before the app is made.
 */
export function installAmbientContextSpy(): AmbientContextCounts {
  const counts: AmbientContextCounts = { run: 0, enterWith: 0, getStore: 0, createHook: 0 };
  const prototype = AsyncLocalStorage.prototype;
  for (const method of ['run', 'enterWith', 'getStore'] as const) {
    const original: unknown = Reflect.get(prototype, method);
    if (typeof original !== 'function') throw new TypeError(`AsyncLocalStorage has no ${method}`);
    Object.defineProperty(prototype, method, {
      configurable: true,
      writable: true,
      value: function (this: AsyncLocalStorage<unknown>, ...args: unknown[]): unknown {
        counts[method] += 1;
        return Reflect.apply(original, this, args);
      },
    });
  }
  const createHook = asyncHooks.createHook;
  asyncHooks.createHook = (callbacks) => {
    counts.createHook += 1;
    return createHook(callbacks);
  };
  return counts;
}
