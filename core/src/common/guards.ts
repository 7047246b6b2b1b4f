/** Whether `value` is one of `options`, narrowing it to their type (input text checked against a closed list). */
export function isOneOf<T extends string>(options: readonly T[], value: string | undefined): value is T {
  return options.some((option) => option === value);
}

/** Whether `key` is an own key of `record`, narrowing it to the record's keys (a field name to look up). */
export function isKeyOf<T extends object>(record: T, key: string): key is Extract<keyof T, string> {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/** Whether `value` is a plain object (not null, not an array), whose fields are then read one by one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
