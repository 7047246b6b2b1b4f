/**
 * A deep copy that keeps Dates and leaves out undefined properties: stored objects are never
 * shared with callers (a caller mutating its copy must not change the store), and what comes back
 * has the same shape as what the SQL adapter returns, where NULL columns become absent properties.
 */
export function deepCopy<T>(value: T): T {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a copy has its original's type (undefined fields are optional ones)
  return copied(value) as T;
}

function copied(value: unknown): unknown {
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) return value.map((item: unknown) => copied(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, field]) => field !== undefined)
        .map(([key, field]) => [key, copied(field)]),
    );
  }
  return value;
}
