import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CoreError,
  DisputeRepository,
  IDEMPOTENCY,
  IdempotencyStore,
  PaymentAttemptRepository,
  RefundRepository,
  UnitOfWork,
  type Dispute,
  type PaymentAttempt,
  type Refund,
  type Transaction,
} from '@payments/core';
import type { AppContainer } from '../../src/container';
import type { TestResponse } from './test-app';

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
  const restore = (): void => {
    armed.delete(name);
    Reflect.deleteProperty(object, key);
  };
  armed.set(name, restore);
  Object.defineProperty(object, key, { value: replacement(restore), configurable: true, writable: true });
}

/** The methods shadowed now, with what brings each back. */
const armed = new Map<string, () => void>();

/** The methods still shadowed: faults a test armed and its request never reached. */
export function armedFaults(): string[] {
  return [...armed.keys()];
}

/** Takes back the faults armed and never reached (a request refused before the boundary). */
export function disarmFaults(): void {
  for (const restore of [...armed.values()]) restore();
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
  // The class's own method, called on whichever copy runs it: a copy bound to a transaction joins it.
  const prototype: unknown = Object.getPrototypeOf(uow);
  if (!isUnitOfWork(prototype)) throw new TypeError('the unit of work has no run of its class');
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the copy that runs it as `this`
  const { run } = prototype;
  Object.defineProperty(uow, 'run', {
    configurable: true,
    writable: true,
    value: async function <T>(this: UnitOfWork, work: (transaction: Transaction) => Promise<T>): Promise<T> {
      if (units.getStore()) return run.bind(this)(work);
      const unit: { error?: Error } = {};
      const result = await run.bind(this)((transaction: Transaction) => units.run(unit, () => work(transaction)));
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

/** `key`'s next call fails with a 503 before it runs. */
export function failsOnce<T extends object>(object: T, key: keyof T): void {
  onNextCall(object, key, (restore) => {
    const failing = async (): Promise<never> => {
      restore();
      throw databaseUnavailable();
    };
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a method of any signature may fail before it runs
    return failing as T[keyof T];
  });
}

/** The routes whose work calls a channel between transactions (docs/idempotency.md, recovery points). */
export type PhasedRoute = 'refund' | 'attempt' | 'evidence';

/**
 * The phase boundaries a request's work can be broken off at:
 * - `after_first`: the first transaction (the one that makes the route's object) commits, then the database fails;
 * - `second`: the transaction that records the channel's answer fails (a route with one);
 * - `answer`: the idempotent answer cannot be stored;
 * - `died`: the process dies after the first transaction; its claim on the key stays until the lease runs out.
 */
export type Boundary = 'after_first' | 'second' | 'answer' | 'died';

/** What the first try answers when the fault at `boundary` struck it. */
export const BOUNDARY_STATUS: Readonly<Record<Boundary, number>> = { after_first: 503, second: 503, answer: 503, died: 500 };

/** The boundaries each route has: evidence is stored in one transaction, after the channel's call. */
export const ROUTE_BOUNDARIES: Readonly<Record<PhasedRoute, readonly Boundary[]>> = {
  refund: ['after_first', 'second', 'answer', 'died'],
  attempt: ['after_first', 'second', 'answer', 'died'],
  evidence: ['after_first', 'answer', 'died'],
};

/** How a fault reaches the phases of one route's work, in the app's own instances. */
interface Phases {
  /** `error` is raised once the transaction that makes (or stores) the route's object committed. */
  afterFirst(error: () => Error): void;
  /** The transaction that records the channel's answer fails (503). */
  readonly second?: () => void;
}

function isUnitOfWork(value: unknown): value is UnitOfWork {
  return typeof value === 'object' && value !== null && 'run' in value && typeof value.run === 'function';
}

const commitFaults = new WeakMap<AppContainer, ReturnType<typeof faultsOf>>();

function phasesOf(app: AppContainer, route: PhasedRoute): Phases {
  // The app's unit of work is wrapped once, before the first request a fault breaks off.
  const failAfterCommit = (error: Error): void => {
    const faults = commitFaults.get(app);
    if (!faults) throw new Error('phase faults: the unit of work was not wrapped');
    faults.failAfterCommit(error);
  };
  if (!commitFaults.has(app)) commitFaults.set(app, faultsOf(app));
  switch (route) {
    case 'refund': {
      const refunds = app.get<RefundRepository>(RefundRepository);
      return {
        afterFirst: (error) =>
          onNextCall(
            refunds,
            'insert',
            (restore) =>
              async function (this: RefundRepository, refund: Refund) {
                restore();
                await this.insert(refund);
                failAfterCommit(error());
              },
          ),
        // The second transaction (RecordRefundReport) opens with the refund's locked read.
        second: () => failsOnce(refunds, 'findByIdForUpdate'),
      };
    }
    case 'attempt': {
      const attempts = app.get<PaymentAttemptRepository>(PaymentAttemptRepository);
      return {
        afterFirst: (error) =>
          onNextCall(
            attempts,
            'insert',
            (restore) =>
              async function (this: PaymentAttemptRepository, attempt: PaymentAttempt) {
                restore();
                await this.insert(attempt);
                failAfterCommit(error());
              },
          ),
        // The second transaction (the order's record) reads the attempt back; the first never does.
        second: () => failsOnce(attempts, 'findById'),
      };
    }
    case 'evidence': {
      const disputes = app.get<DisputeRepository>(DisputeRepository);
      return {
        // The one transaction, after the channel's call, stores the evidence.
        afterFirst: (error) =>
          onNextCall(
            disputes,
            'update',
            (restore) =>
              async function (this: DisputeRepository, dispute: Dispute) {
                restore();
                const stored = await this.update(dispute);
                failAfterCommit(error());
                return stored;
              },
          ),
      };
    }
  }
}

/** Arms the fault at `boundary` for the next request of `route` the app serves. */
export function armPhaseFault(app: AppContainer, route: PhasedRoute, boundary: Boundary): void {
  const phases = phasesOf(app, route);
  const store = app.get<IdempotencyStore>(IdempotencyStore);
  switch (boundary) {
    case 'after_first':
      return phases.afterFirst(databaseUnavailable);
    case 'second':
      if (!phases.second) throw new Error(`${route} has no second transaction`);
      return phases.second();
    case 'answer':
      return failsOnce(store, 'complete');
    case 'died':
      phases.afterFirst(() => new ProcessDied());
      // A dead process releases nothing.
      return onNextCall(store, 'release', (restore) => async () => restore());
  }
}

/**
 * The first try of a request with `boundary` armed, then the client's retry with the same key:
 * when the process died, a retry inside the lease is refused (409 `idempotency_key_in_use`) and
 * the clock runs past the lease first.
 */
export async function faultThenRetry(
  app: AppContainer,
  clock: { advance(ms: number): void },
  route: PhasedRoute,
  boundary: Boundary,
  send: () => Promise<TestResponse>,
): Promise<{ first: TestResponse; retry: TestResponse; reached: boolean }> {
  armPhaseFault(app, route, boundary);
  const first = await send();
  const reached = armedFaults().length === 0;
  if (!reached) {
    disarmFaults();
    return { first, retry: first, reached };
  }
  if (boundary === 'died') {
    const early = await send();
    if (early.statusCode !== 409) throw new Error(`a retry during the dead request's lease answered ${early.statusCode} ${early.payload}`);
    clock.advance(IDEMPOTENCY.leaseMs + 1);
  }
  return { first, retry: await send(), reached };
}
