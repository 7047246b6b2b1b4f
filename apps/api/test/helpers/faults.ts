import { AsyncLocalStorage } from 'node:async_hooks';
import { CoreError, UnitOfWork } from '@payments/core';
import type { AppContainer } from '../../src/container';

/** What a statement that failed or a connection that dropped becomes: 503, which no key remembers. */
export function databaseUnavailable(): Error {
  return new CoreError('api_error', 'unavailable', 'The database did not answer (injected); retry shortly.', { retryAfterSeconds: 1 });
}

/** Stops a request's work where its process would have died; the test throws away its 500. */
export class ProcessDied extends Error {
  constructor() {
    super('the process died here (injected)');
  }
}

/**
 * Shadows `object[key]` (a class's method) with an own property for one call: `replacement` gets
 * `restore`, which brings the class's method back, and calls it first.
 */
export function onNextCall<T extends object, K extends keyof T>(object: T, key: K, replacement: (restore: () => void) => T[K]): void {
  if (Object.hasOwn(object, key)) throw new Error(`${String(key)} is shadowed already`);
  const name = `${object.constructor.name}.${String(key)}`;
  armed.add(name);
  const restore = (): void => {
    armed.delete(name);
    Reflect.deleteProperty(object, key);
  };
  Object.defineProperty(object, key, { value: replacement(restore), configurable: true, writable: true });
}

const armed = new Set<string>();

/** The methods still shadowed: faults a test armed and its request never reached. */
export function armedFaults(): string[] {
  return [...armed];
}

/**
 * Faults at the phase boundaries of a request, in the app's own instances (the storage's
 * repositories, unit of work and idempotency store are one instance each, shared by every use
 * case). The app's unit of work is wrapped once so that a fault can let a transaction commit and
 * then report a failure: a COMMIT whose answer was lost with the connection.
 */
export function faultsOf(app: AppContainer): { readonly failAfterCommit: (error: Error) => void } {
  const units = new AsyncLocalStorage<{ error?: Error }>();
  const uow = app.get<UnitOfWork>(UnitOfWork);
  const run = uow.run.bind(uow);
  Object.defineProperty(uow, 'run', {
    configurable: true,
    writable: true,
    value: async <T>(work: () => Promise<T>): Promise<T> => {
      if (units.getStore()) return run(work);
      const unit: { error?: Error } = {};
      const result = await run(() => units.run(unit, work));
      if (unit.error) throw unit.error;
      return result;
    },
  });
  return {
    /** The outermost unit of work running now commits, then its `run` throws `error`; outside one, `error` is thrown at once. */
    failAfterCommit: (error: Error): void => {
      const unit = units.getStore();
      if (!unit) throw error;
      unit.error = error;
    },
  };
}
