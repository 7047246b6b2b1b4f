import type { Token } from '@payments/core';
import type { ContainerModuleLoadOptions, ResolutionContext } from 'inversify';

/** What the container resolves: a core token (a port or a bundle) or a class (a use case, bound to itself). */
export type Key<T> = Token<T> | (abstract new (...args: never[]) => T);

const BUILD = Symbol('build');
/** A dependency made from others or from configuration rather than bound under a key of its own. */
export interface Built<T> {
  readonly [BUILD]: (ctx: ResolutionContext) => T;
}
export const built = <T>(build: (ctx: ResolutionContext) => T): Built<T> => ({ [BUILD]: build });
export const value = <T>(constant: T): Built<T> => built(() => constant);

/** Where each field of a deps object comes from; the compiler checks every key's type against the field's. */
export type Wiring<D> = { readonly [K in keyof D]: Key<D[K]> | Built<D[K]> };

/** The instance bound to `key`, typed by the key. */
export function resolve<T>(ctx: Pick<ResolutionContext, 'get'>, key: Key<T>): T {
  return ctx.get<T>(key);
}

function resolveOne<T>(ctx: ResolutionContext, source: Key<T> | Built<T>): T {
  return typeof source === 'object' && BUILD in source ? source[BUILD](ctx) : resolve(ctx, source);
}

/** The deps object `wiring` describes, resolved in `ctx`. */
export function resolveDeps<D>(ctx: ResolutionContext, wiring: Wiring<D>): D {
  const deps: Record<string, unknown> = {};
  for (const [field, source] of Object.entries<Key<unknown> | Built<unknown>>(wiring)) deps[field] = resolveOne(ctx, source);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- Wiring<D> has one source per field of D, each typed as that field
  return deps as D;
}

/** Binds a use case (or any class taking one deps object) to itself, built once from `wiring`. */
export function bindClass<D, T>({ bind }: ContainerModuleLoadOptions, type: new (deps: D) => T, wiring: Wiring<D>): void {
  bind<T>(type)
    .toDynamicValue((ctx) => new type(resolveDeps(ctx, wiring)))
    .inSingletonScope();
}

/** Binds a token to a value made once from others (a deps bundle, an adapter needing resolved ports). */
export function bindBuilt<T>({ bind }: ContainerModuleLoadOptions, key: Key<T>, build: (ctx: ResolutionContext) => T): void {
  bind<T>(key).toDynamicValue(build).inSingletonScope();
}

/** Binds a token to an existing instance. */
export function bindValue<T>({ bind }: ContainerModuleLoadOptions, key: Key<T>, instance: T): void {
  bind<T>(key).toConstantValue(instance);
}
