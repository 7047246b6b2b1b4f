import type { Transaction } from './unit-of-work.port';

/**
 * The method a storage adapter's connection holder (the object its repositories query through)
 * implements: itself, running in `transaction`. Everything that reaches such a holder is bound
 * around it by `StorageTransaction.bind`; nothing else needs to know about transactions.
 */
export const BIND_TO_TRANSACTION: unique symbol = Symbol.for('payments.bindToTransaction');

export interface BindsToTransaction {
  [BIND_TO_TRANSACTION](transaction: StorageTransaction): object;
}

type Fields = Record<PropertyKey, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

function bindingOf(value: Fields): ((transaction: StorageTransaction) => object) | undefined {
  // Read with `[]`, not `in`: a proxy around a port answers the read, not `has`.
  const method = value[BIND_TO_TRANSACTION];
  if (typeof method !== 'function') return undefined;
  return (transaction) => {
    const bound: unknown = Reflect.apply(method, value, [transaction]);
    if (!isObject(bound)) throw new TypeError('A storage port bound itself to no object.');
    return bound;
  };
}

/** Whether binding can change `value`: it is a holder, or one of its fields reaches one. Asked once per object. */
const reachesStorage = new WeakMap<object, boolean>();
/** The objects whose answer is being worked out: met again through a cycle, they count as no for now. */
const asking = new Set<object>();

function holdsStorage(value: unknown): value is Fields {
  // Arrays, buffers and functions are never looked into: ports are objects with named fields.
  if (!isObject(value) || Array.isArray(value) || ArrayBuffer.isView(value)) return false;
  const known = reachesStorage.get(value);
  if (known !== undefined) return known;
  if (asking.has(value)) return false;
  asking.add(value);
  try {
    const holds = bindingOf(value) !== undefined || Object.values(value).some(holdsStorage);
    // A no worked out while an enclosing object was still open may rest on that object's
    // provisional no (a cycle): only a yes, or the outermost answer, is remembered.
    if (holds || asking.size === 1) reachesStorage.set(value, holds);
    return holds;
  } finally {
    asking.delete(value);
  }
}

const isPlainObject = (value: Fields): boolean => {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** The own fields of an object that reach storage, worked out once per object (ports and deps never change their fields). */
const storageFieldsOf = new WeakMap<object, readonly string[]>();

function storageFields(target: Fields): readonly string[] {
  let keys = storageFieldsOf.get(target);
  if (keys === undefined) {
    keys = Object.keys(target).filter((key) => holdsStorage(target[key]));
    storageFieldsOf.set(target, keys);
  }
  return keys;
}

/**
 * One transaction of a storage adapter: binds objects to it (one bound copy per object) and
 * keeps the callbacks waiting for its commit. The adapter ends it when the transaction ends.
 */
export class StorageTransaction implements Transaction {
  private readonly bound = new Map<object, object>();
  private readonly waiting: Array<() => Promise<void>> = [];
  private ended = false;

  bind<T>(target: T): T {
    if (!holdsStorage(target)) return target;
    let result = this.bound.get(target);
    if (result === undefined) {
      result = this.bindNew(target);
      this.bound.set(target, result);
      this.bound.set(result, result);
    }
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a bound copy is its target seen in this transaction: same prototype chain, same fields, the ones reaching storage bound
    return result as T;
  }

  /** Throws once the transaction has ended: a bound object kept past its unit of work is a bug that would write outside it. */
  assertOpen(): void {
    if (this.ended) throw new Error('A storage port bound to a transaction was used after its unit of work ended.');
  }

  /** Queues `callback` for after the commit (see UnitOfWork.afterCommit). */
  afterCommit(callback: () => Promise<void>): void {
    this.waiting.push(callback);
  }

  /** Ends the transaction; after a commit, runs what waited for it, each failure its own. */
  async end(committed: boolean): Promise<void> {
    this.ended = true;
    this.bound.clear();
    if (!committed) return;
    for (const callback of this.waiting) await callback().catch(() => undefined);
  }

  private bindNew(target: Fields): object {
    const binding = bindingOf(target);
    if (binding) return binding(this);
    if (isPlainObject(target)) {
      const copy: Fields = { ...target };
      for (const key of storageFields(target)) copy[key] = this.bind(target[key]);
      return copy;
    }
    // An instance (a repository, a use case): the same object, seen through a copy whose fields
    // that reach storage are bound. Its methods and state stay the original's.
    const copy: unknown = Object.create(target);
    if (!isObject(copy)) throw new TypeError('Object.create made no object');
    for (const key of storageFields(target)) copy[key] = this.bind(target[key]);
    return copy;
  }
}
