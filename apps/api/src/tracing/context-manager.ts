import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';

/**
 * OpenTelemetry's active context on AsyncLocalStorage, like the SDK's own manager, plus
 * `enterWith`: Hapi runs a request's lifecycle after its `onRequest` extension returns, so the
 * request's span cannot be made active by wrapping a callback; the extension enters it for the
 * rest of the request's async chain instead. Installed only when tracing is on.
 */
export class EnterableContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const bound = thisArg === undefined ? fn : fn.bind(thisArg);
    return this.storage.run(context, bound, ...args);
  }

  /** `context` for the rest of the current async chain (what the request's extension needs). */
  enterWith(context: Context): void {
    this.storage.enterWith(context);
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the function is returned with its own signature
    const fn = target as unknown as (...args: unknown[]) => unknown;
    const storage = this.storage;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- same signature as target
    return function (this: unknown, ...args: unknown[]) {
      return storage.run(context, () => fn.apply(this, args));
    } as unknown as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}
