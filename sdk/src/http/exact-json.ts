/** A JSON string token (with its escapes) or a JSON number token. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/g;
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
/** Only an integer of 16 digits or more can be past 2^53 − 1 (16 digits long). */
const LONG_DIGITS = /[0-9]{16}/;

/**
 * JSON.parse, except that an integer past 2^53 − 1 becomes a BigInt instead of a rounded number
 * (the API writes balances exactly, and a balance may pass it). Each such integer is first quoted
 * with a marker made of `nonce()` (random: no string of the answer can carry it), then revived as
 * a BigInt. Answers
 * without a 16-digit run (nearly all) go straight to JSON.parse.
 */
export function parseExactJson(text: string, nonce: () => string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text) as unknown;
  const marker = `exact-integer-${nonce()}:`;
  const quoted = text.replace(TOKEN, (token) => (INTEGER.test(token) && !Number.isSafeInteger(Number(token)) ? `"${marker}${token}"` : token));
  return JSON.parse(quoted, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value,
  ) as unknown;
}

/**
 * JSON.stringify that writes a BigInt as the digits of its exact integer (JSON.stringify refuses
 * BigInt), for showing what `parseExactJson` read: each BigInt is written as a string tagged with
 * a marker made of `nonce()`, and the quoted tag is then replaced by the bare digits.
 */
export function stringifyExactJson(value: unknown, nonce: () => string, space?: number): string {
  const marker = `exact-integer-${nonce()}:`;
  const text = JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? `${marker}${field.toString()}` : field), space);
  return text.replace(new RegExp(`"${marker}(-?[0-9]+)"`, 'g'), '$1');
}
