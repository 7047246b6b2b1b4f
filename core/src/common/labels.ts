import { invalidParameter } from './core-error';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A person-chosen label (a key's name, an account holder): trimmed, 1 to `maxLength` characters,
 * no control characters. Throws 400 naming `param`; the message never repeats the value.
 */
export function validateLabel(value: string, param: string, maxLength: number): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > maxLength || CONTROL.test(trimmed)) {
    throw invalidParameter(param, `${param} must be 1 to ${maxLength} characters without control characters.`);
  }
  return trimmed;
}
