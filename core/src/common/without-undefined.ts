/**
 * The object with its undefined fields left out: core's entities declare optional fields as
 * absent, and the API omits a field rather than sending null. A plain loop, because it runs for
 * every row read and every object presented (the entries/filter/fromEntries form was a few per
 * cent of a read's CPU).
 */
export function withoutUndefined<T extends object>(value: T): T {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field: unknown = Reflect.get(value, key);
    if (field === undefined) continue;
    // An own property even for a key named `__proto__`, as the entries form made it.
    if (key === '__proto__') Object.defineProperty(result, key, { value: field, enumerable: true, writable: true, configurable: true });
    else result[key] = field;
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the same object less its undefined fields, which T declares optional.
  return result as T;
}
