/**
 * Reading JSON a test got back (an API answer, a CLI's output, a webhook body, a log line)
 * without trusting its shape: each reader names the path it wants, and a missing or mistyped
 * value fails the test saying where, instead of surfacing later as `undefined`.
 */

type JsonPath = ReadonlyArray<string | number>;

/** A JSON object, whose fields are read one by one (by the readers below, or compared whole). */
export type JsonObject = Record<string, unknown>;

/** An object of the API (a payment intent, a dispute, an event…): a JSON object with its `id`. */
export type ApiObject = JsonObject & { readonly id: string };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const isApiObject = (value: unknown): value is ApiObject => isObject(value) && typeof value.id === 'string';

/** The value at `path` (object keys, array indexes), or undefined where the path leaves the JSON. */
export function jsonAt(value: unknown, ...path: JsonPath): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = Reflect.get(at, key);
  }
  return at;
}

function mistyped(what: string, path: JsonPath, found: unknown): TypeError {
  return new TypeError(`Expected ${what} at '${path.join('.')}', found ${JSON.stringify(found) ?? 'nothing'}.`);
}

export function textAt(value: unknown, ...path: JsonPath): string {
  const found = jsonAt(value, ...path);
  if (typeof found !== 'string') throw mistyped('text', path, found);
  return found;
}

export function numberAt(value: unknown, ...path: JsonPath): number {
  const found = jsonAt(value, ...path);
  if (typeof found !== 'number') throw mistyped('a number', path, found);
  return found;
}

/** The keys of the object at `path`. */
export function keysAt(value: unknown, ...path: JsonPath): string[] {
  return Object.keys(objectAt(value, ...path));
}

export function listAt(value: unknown, ...path: JsonPath): unknown[] {
  const found = jsonAt(value, ...path);
  if (!Array.isArray(found)) throw mistyped('a list', path, found);
  return found;
}

/** The object at `path` (not null, not a list). */
export function objectAt(value: unknown, ...path: JsonPath): JsonObject {
  const found = jsonAt(value, ...path);
  if (!isObject(found)) throw mistyped('an object', path, found);
  return found;
}

/** The API object at `path`: an object with a text `id`. */
export function apiObjectAt(value: unknown, ...path: JsonPath): ApiObject {
  const found = jsonAt(value, ...path);
  if (!isApiObject(found)) throw mistyped('an object with an id', path, found);
  return found;
}

/** The API objects listed at `path` (a page's `data`). */
export function apiObjectsAt(value: unknown, ...path: JsonPath): ApiObject[] {
  return listAt(value, ...path).map((item, index) => {
    if (!isApiObject(item)) throw mistyped('an object with an id', [...path, index], item);
    return item;
  });
}
