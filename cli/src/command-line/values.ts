import type { Values } from './command.js';
import { UsageError } from './exit.js';

export function optionalString(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function requiredString(values: Values, name: string): string {
  const value = optionalString(values, name);
  if (value === undefined || value === '') throw new UsageError(`--${name} is required.`);
  return value;
}
