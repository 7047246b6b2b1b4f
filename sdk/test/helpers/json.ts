/** A field of parsed JSON, or undefined when the value is no object or has no such field. */
export const jsonField = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null && Object.hasOwn(value, name) ? Reflect.get(value, name) : undefined;
