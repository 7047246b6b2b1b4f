import { createHmac, timingSafeEqual } from 'node:crypto';
import { CoreError } from '@payments/core';

/** The header a rest channel signs its callbacks with (docs/channels/rest.md, section 6). */
export const SIGNATURE_HEADER = 'channel-signature';

/** How far a callback's timestamp may be from our clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const MAX_HEADER_LENGTH = 2048;
const HEX_SHA256 = /^[0-9a-f]{64}$/;

function hmacHex(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/**
 * The `Channel-Signature` value a channel sends with `rawBody` at `timestamp` (Unix seconds). For
 * tests and sandboxes, like stripe's test header helper: production code only verifies.
 */
export function signRestCallback(secret: string, rawBody: string, timestamp: number = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

function invalidSignature(message: string): CoreError {
  return new CoreError('invalid_signature', 'authentication', message);
}

interface ParsedSignature {
  readonly timestamp: number;
  readonly signatures: readonly string[];
}

function parseHeader(header: string): ParsedSignature {
  if (header.length > MAX_HEADER_LENGTH) throw invalidSignature('The Channel-Signature header is too long.');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) throw invalidSignature('The Channel-Signature header has no valid timestamp.');
      timestamp = Number(value);
    } else if (key === 'v1' && HEX_SHA256.test(value)) {
      signatures.push(value);
    }
    // Other schemes are ignored, so a channel can add one without breaking us.
  }
  if (timestamp === undefined) throw invalidSignature('The Channel-Signature header has no timestamp.');
  if (signatures.length === 0) throw invalidSignature('The Channel-Signature header has no v1 signature.');
  return { timestamp, signatures };
}

function headerValue(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

/**
 * Checks a callback's `Channel-Signature` against its raw body: some `v1` must be the HMAC-SHA256
 * of `"<t>.<rawBody>"` under `secret` (compared in constant time) and `t` within the tolerance of
 * `now`. Throws CoreError `invalid_signature` (authentication) otherwise; the message names what
 * was wrong and never echoes the header.
 */
export function verifyRestCallbackSignature(
  secret: string,
  headers: Readonly<Record<string, string | undefined>>,
  rawBody: string,
  now: Date,
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): void {
  const header = headerValue(headers, SIGNATURE_HEADER);
  if (!header) throw invalidSignature('The callback has no Channel-Signature header.');
  const { timestamp, signatures } = parseHeader(header);
  const age = Math.floor(now.getTime() / 1000) - timestamp;
  if (Math.abs(age) > toleranceSeconds) {
    throw invalidSignature(`The callback's timestamp is outside the ${toleranceSeconds}-second tolerance; check the channel's clock.`);
  }
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'utf8');
  // Every candidate is 64 hex characters (checked while parsing), so lengths match and the
  // comparison takes the same time wherever the first difference is.
  let matched = false;
  for (const candidate of signatures) {
    if (timingSafeEqual(expected, Buffer.from(candidate, 'utf8'))) matched = true;
  }
  if (!matched) throw invalidSignature('The callback signature does not match its body; check the callback secret of this mode.');
}
