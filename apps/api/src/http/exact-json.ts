import { randomBytes } from 'node:crypto';
import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';

/**
 * JSON text in which every BigInt is written as the integer literal of its exact digits.
 * JSON numbers have no size limit and the contract types amounts as int64, but JSON.stringify
 * refuses BigInt and a number past 2^53 − 1 would already be rounded: a balance can pass that.
 * Each BigInt goes out first as a string tagged with a random marker no other string of the body
 * can carry, and the quoted tag is then replaced by the bare digits.
 */
export function exactJson(value: unknown): string {
  // Most answers carry no BigInt: JSON.stringify without a replacer writes them several times
  // faster, and refuses (TypeError) exactly the ones that do, which take the marked path.
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  const marker = `exact-integer-${randomBytes(16).toString('hex')}:`;
  const text = JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? `${marker}${field.toString()}` : field));
  return text.replace(new RegExp(`"${marker}(-?[0-9]+)"`, 'g'), '$1');
}

/** An answer of `value` as exact JSON (`exactJson`): for objects that carry BigInt amounts. */
export function exactResponse(h: ResponseToolkit, value: unknown): ResponseObject {
  return h.response(exactJson(value)).type('application/json; charset=utf-8');
}
