import { fromBase64, fromHex } from '../crypto/encoding.js';
import { SignatureVerificationError, type SignatureFailureReason } from '../errors.js';

/** The header of our own scheme: `t=<unix>,v1=<hex>,v2=<base64>,v1_kid=<n>,v2_kid=<key_id>`. */
export const SIGNATURE_HEADER = 'x-webhook-signature';

/** The Standard Webhooks headers every delivery carries as well. */
export const STANDARD_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

/** A fetch `Headers` (edge runtimes, Deno, undici) or anything with the same `get`. */
export interface HeaderGetter {
  get(name: string): string | null;
}

/** Node's `IncomingHttpHeaders` (`req.headers`), or any map of header names to values. */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * What `constructEvent` reads signatures from: the whole request headers (a fetch `Headers` or
 * Node's `req.headers`), where it finds `X-Webhook-Signature` and the Standard Webhooks headers,
 * or the value of `X-Webhook-Signature` alone.
 */
export type SignatureHeaders = HeaderGetter | HeaderRecord | string | null | undefined;

/** `X-Webhook-Signature`, parsed: signatures as bytes (an undecodable one is kept empty, so it never matches). */
export interface OwnSignatures {
  readonly scheme: 'x-webhook-signature';
  readonly t: string;
  readonly v1: Uint8Array[];
  readonly v2: Uint8Array[];
  readonly v2Kid: string | undefined;
}

/** The Standard Webhooks headers, parsed. */
export interface StandardSignatures {
  readonly scheme: 'standard';
  readonly id: string;
  readonly t: string;
  /** `v1,` entries: HMAC-SHA256 by the endpoint secret. */
  readonly v1: Uint8Array[];
  /** `v1a,` entries: Ed25519 by a platform key. */
  readonly v1a: Uint8Array[];
}

export interface ParsedSignatures {
  readonly own: OwnSignatures | undefined;
  readonly standard: StandardSignatures | undefined;
}

const UNIX_SECONDS = /^[0-9]{1,12}$/;

const failure = (reason: SignatureFailureReason, message: string) => new SignatureVerificationError(reason, message);

/**
 * The signatures a delivery carries, in either scheme or both. Throws when none can be read: the
 * header missing, or every scheme present malformed (the first one's problem is named).
 */
export function parseSignatures(headers: SignatureHeaders): ParsedSignatures {
  if (typeof headers === 'string' || headers === null || headers === undefined) {
    if (typeof headers === 'string' && /^\s*v1a?,/.test(headers)) {
      throw failure(
        'malformed_header',
        'This is a Standard Webhooks webhook-signature value: pass the request headers (req.headers or request.headers), which carry webhook-id and webhook-timestamp too.',
      );
    }
    return { own: parseOwn(headers), standard: undefined };
  }
  const own = headerValue(headers, SIGNATURE_HEADER, ',');
  const signature = headerValue(headers, STANDARD_HEADERS.signature, ' ');
  if (own === undefined && signature === undefined) {
    throw failure('malformed_header', 'No X-Webhook-Signature or webhook-signature header: was the delivery sent by the payment service?');
  }
  let firstProblem: SignatureVerificationError | undefined;
  const attempt = <T>(parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof SignatureVerificationError)) throw error;
      firstProblem ??= error;
      return undefined;
    }
  };
  const parsed: ParsedSignatures = {
    own: own === undefined ? undefined : attempt(() => parseOwn(own)),
    standard:
      signature === undefined
        ? undefined
        : attempt(() => parseStandard(headerValue(headers, STANDARD_HEADERS.id, ','), headerValue(headers, STANDARD_HEADERS.timestamp, ','), signature)),
  };
  if (!parsed.own && !parsed.standard) throw firstProblem ?? failure('malformed_header', 'No signature header could be read.');
  return parsed;
}

function parseOwn(header: string | null | undefined): OwnSignatures {
  if (typeof header !== 'string' || header.trim() === '') {
    throw failure('malformed_header', 'No X-Webhook-Signature header: was the delivery sent by the payment service?');
  }
  let t = '';
  const v1: Uint8Array[] = [];
  const v2: Uint8Array[] = [];
  let v2Kid: string | undefined;
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    // Unknown fields are ignored, as the API asks: new ones may be added.
    if (name === 't') t = value;
    else if (name === 'v1') v1.push(fromHex(value) ?? new Uint8Array(0));
    else if (name === 'v2') v2.push(fromBase64(value) ?? new Uint8Array(0));
    else if (name === 'v2_kid') v2Kid = value;
  }
  if (!UNIX_SECONDS.test(t)) throw failure('malformed_header', 'The signature header has no t=<unix seconds>.');
  if (v1.length === 0 && v2.length === 0) throw failure('no_signature', 'The signature header carries neither a v1 nor a v2 signature.');
  return { scheme: 'x-webhook-signature', t, v1, v2, v2Kid };
}

function parseStandard(id: string | undefined, timestamp: string | undefined, signature: string): StandardSignatures {
  if (!id) throw failure('malformed_header', 'A webhook-signature header without webhook-id: pass every header of the request.');
  if (timestamp === undefined || !UNIX_SECONDS.test(timestamp.trim())) {
    throw failure('malformed_header', 'A webhook-signature header without webhook-timestamp=<unix seconds>: pass every header of the request.');
  }
  const v1: Uint8Array[] = [];
  const v1a: Uint8Array[] = [];
  for (const entry of signature.split(/\s+/)) {
    // Headers joined by a proxy come as "a, b": the comma then ends an entry's base64.
    const [version, value] = entry.replace(/,$/, '').split(',', 2);
    if (value === undefined) continue;
    // Unknown versions are ignored, as Standard Webhooks asks.
    if (version === 'v1') v1.push(fromBase64(value) ?? new Uint8Array(0));
    else if (version === 'v1a') v1a.push(fromBase64(value) ?? new Uint8Array(0));
  }
  if (v1.length === 0 && v1a.length === 0) throw failure('no_signature', 'The webhook-signature header carries neither a v1 nor a v1a signature.');
  return { scheme: 'standard', id: id.trim(), t: timestamp.trim(), v1, v1a };
}

const isHeaderGetter = (headers: HeaderGetter | HeaderRecord): headers is HeaderGetter => typeof headers.get === 'function';

/**
 * One header's value from a fetch `Headers` or a record of them, whatever the case of its name;
 * repeated values (an array, as Node gives some) are joined with `separator`.
 */
function headerValue(headers: HeaderGetter | HeaderRecord, name: string, separator: string): string | undefined {
  if (isHeaderGetter(headers)) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(separator);
}
