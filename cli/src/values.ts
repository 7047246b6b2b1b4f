import type { Context, Values } from './command.js';
import { optionalString } from './command-line/index.js';
import { UsageError } from './exit-codes.js';

export { optionalString, requiredString } from './command-line/index.js';

export function optionalInteger(values: Values, name: string, minimum = 0): number | undefined {
  const value = optionalString(values, name);
  if (value === undefined) return undefined;
  if (!/^-?[0-9]+$/.test(value) || Number(value) < minimum || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be a whole number of at least ${minimum} (minor units for amounts), not ${JSON.stringify(value)}.`);
  }
  return Number(value);
}

export function requiredInteger(values: Values, name: string, minimum = 0): number {
  const value = optionalInteger(values, name, minimum);
  if (value === undefined) throw new UsageError(`--${name} is required.`);
  return value;
}

export function oneOf<T extends string>(values: Values, name: string, allowed: readonly T[], fallback?: T): T | undefined {
  const value = optionalString(values, name) ?? fallback;
  if (value === undefined) return undefined;
  if (!isOneOf(allowed, value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}.`);
  return value;
}

/** Whether `value` is a plain object (not null, not an array), whose fields are then read one by one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` is one of `allowed`, narrowing it to their type. */
export function isOneOf<T extends string>(allowed: readonly T[], value: string): value is T {
  return allowed.some((option) => option === value);
}

/** `--metadata k=v --metadata k2=v2` as an object. */
export function keyValuePairs(values: Values, name: string): Record<string, string> | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const list = (Array.isArray(raw) ? raw : [raw]).map(String);
  const out: Record<string, string> = {};
  for (const pair of list) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--${name} takes key=value, not ${JSON.stringify(pair)}.`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** The positional argument at `index`, named for the error message. */
export function positional(context: Context, index: number, name: string, pattern?: RegExp): string {
  const value = context.positionals[index];
  if (value === undefined) throw new UsageError(`Missing <${name}>.`);
  if (pattern && !pattern.test(value))
    throw new UsageError(`<${name}> should look like ${pattern.source.replace(/[\^$]/g, '')}, not ${JSON.stringify(value)}.`);
  return value;
}

/** `30s`, `2m`, `500ms`, `1h`, or a bare number of seconds, in milliseconds. */
export function parseDuration(text: string, name: string): number {
  const match = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new UsageError(`--${name} takes a duration such as 30s, 2m or 500ms, not ${JSON.stringify(text)}.`);
  const factors: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const factor = factors[match[2] ?? 's'] ?? 1000;
  return Math.round(Number(match[1]) * factor);
}

export function durationOption(values: Values, name: string, fallback: string): number {
  return parseDuration(optionalString(values, name) ?? fallback, name);
}

export const ID = {
  paymentIntent: /^pi_[0-9A-Za-z]+$/,
  dispute: /^dp_[0-9A-Za-z]+$/,
  settlement: /^st_[A-Z2-7]+$/,
  refund: /^re_[A-Z2-7]+$/,
  event: /^evt_[A-Z2-7]+$/,
  balanceTransaction: /^txn_[1-9][0-9]*$/,
};

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
