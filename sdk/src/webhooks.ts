import type { CryptoProvider } from './crypto/crypto-provider.js';
import { SignatureVerificationError, type SignatureFailureReason } from './errors.js';
import type { Event, List, WebhookPublicKey } from './types.js';

/** The header every delivery carries: `t=<unix>,v1=<hex>,v2=<base64>,v1_kid=<n>,v2_kid=<key_id>`. */
export const SIGNATURE_HEADER = 'x-webhook-signature';

/** How far `t` may be from this machine's clock, either way (the API's rule: 300 seconds). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Public keys by id (`{key_…: base64}`), or the list `GET /v1/webhook_public_keys` answered. */
export type PublicKeys = Readonly<Record<string, string>> | readonly WebhookPublicKey[] | List<WebhookPublicKey>;

/** What to check a signature with: the endpoint's secret (v1), the platform's keys (v2), or both. */
export interface WebhookVerifier {
  /** The endpoint secret: 64 hex characters, shown once when the endpoint was created. */
  secret?: string;
  publicKeys?: PublicKeys;
}

export interface ConstructEventOptions {
  /** Seconds `t` may be from this machine's clock; default 300. */
  tolerance?: number;
}

export interface TestHeaderOptions {
  /** The body exactly as it will be sent. */
  payload: string | Uint8Array;
  /** Signs v1 with this endpoint secret (64 hex characters). */
  secret?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Signs v2 with this Ed25519 private key (PKCS#8 PEM) under `keyId`. */
  privateKey?: string;
  keyId?: string;
  /** The `v1_kid` to write; default 1. */
  secretVersion?: number;
}

type RawBody = string | Uint8Array;

interface ParsedHeader {
  t: string;
  v1: string[];
  v2: string[];
  v2Kid: string | undefined;
}

interface Problem {
  reason: SignatureFailureReason;
  message: string;
}

/** Order in which a failure is named when several apply: the most certain diagnosis first. */
const PRIORITY: readonly SignatureFailureReason[] = ['body_changed', 'wrong_secret', 'invalid_secret', 'unknown_key_id', 'no_signature'];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Verifies webhook deliveries. `constructEvent` checks with what it is given; `constructEventAsync`
 * can also fetch the platform's public keys from the API (cached by key id, fetched again when
 * a delivery names a key not seen yet, as after a rotation).
 */
export class Webhooks {
  private readonly keyCache = new Map<string, string>();
  private lastFetch = 0;

  constructor(
    private readonly crypto: CryptoProvider,
    private readonly fetchPublicKeys?: () => Promise<List<WebhookPublicKey>>,
  ) {}

  /**
   * The event of a delivery, once its signature checks out: v1 against `secret`, or v2 against
   * `publicKeys` (either is enough), and `t` within `tolerance` seconds.
   * @param rawBody the body exactly as received (string or bytes), never re-serialized JSON
   * @param header the `X-Webhook-Signature` header
   * @throws SignatureVerificationError whose `reason` and message say why
   */
  constructEvent<E extends Event = Event>(
    rawBody: RawBody,
    header: string | null | undefined,
    verifier: WebhookVerifier,
    options: ConstructEventOptions = {},
  ): E {
    const body = bodyBytes(rawBody);
    const parsed = parseHeader(header);
    if (!verifier || (verifier.secret === undefined && verifier.publicKeys === undefined)) {
      throw new SignatureVerificationError('no_verifier', 'Pass the endpoint {secret} or the platform {publicKeys} to verify with.');
    }
    const message = concat(encoder.encode(`${parsed.t}.`), body);
    const problems: Problem[] = [];
    const verified = this.checkV1(parsed, message, rawBody, verifier.secret, problems) || this.checkV2(parsed, message, verifier.publicKeys, problems);
    if (!verified) {
      problems.sort((a, b) => PRIORITY.indexOf(a.reason) - PRIORITY.indexOf(b.reason));
      const first = problems[0] ?? { reason: 'no_signature', message: 'The header carries no signature this verifier can check.' };
      throw new SignatureVerificationError(first.reason, problems.map((problem) => problem.message).join(' ') || first.message);
    }
    const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
    const age = Math.floor(Date.now() / 1000) - Number(parsed.t);
    if (Math.abs(age) > tolerance) {
      throw new SignatureVerificationError(
        'timestamp_outside_tolerance',
        `The signature is valid but its timestamp is ${Math.abs(age)} s ${age > 0 ? 'old' : 'in the future'} (tolerance ${tolerance} s): a replayed delivery, or this machine's clock is off.`,
      );
    }
    try {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a verified body is the service's event, which types-agree holds to the API document
      return JSON.parse(typeof rawBody === 'string' ? rawBody : decoder.decode(body)) as E;
    } catch {
      throw new SignatureVerificationError('body_changed', 'The signature is valid but the body is not JSON.');
    }
  }

  /**
   * Like `constructEvent`, and without a verifier it checks v2 against the platform keys of
   * `GET /v1/webhook_public_keys`, fetched with the client's API key and cached by key id.
   */
  async constructEventAsync<E extends Event = Event>(
    rawBody: RawBody,
    header: string | null | undefined,
    verifier: WebhookVerifier = {},
    options: ConstructEventOptions = {},
  ): Promise<E> {
    if (verifier.secret !== undefined || verifier.publicKeys !== undefined) return this.constructEvent<E>(rawBody, header, verifier, options);
    const kid = parseHeader(header).v2Kid;
    if (kid !== undefined && !this.keyCache.has(kid)) await this.refreshKeys();
    return this.constructEvent<E>(rawBody, header, { publicKeys: Object.fromEntries(this.keyCache) }, options);
  }

  /**
   * A signature header for `payload`, as the service would send it: for merchants' own tests of
   * their webhook handler. Needs a `secret` (v1), a `privateKey` with `keyId` (v2), or both.
   */
  generateTestHeader(options: TestHeaderOptions): string {
    const t = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const message = concat(encoder.encode(`${t}.`), bodyBytes(options.payload));
    const parts = [`t=${t}`];
    if (options.secret !== undefined) {
      parts.push(`v1=${this.crypto.hmacSha256Hex(secretBytes(options.secret), message)}`, `v1_kid=${options.secretVersion ?? 1}`);
    }
    if (options.privateKey !== undefined) {
      if (!options.keyId) throw new TypeError('generateTestHeader: a privateKey needs its keyId.');
      parts.push(`v2=${this.crypto.signEd25519(options.privateKey, message)}`, `v2_kid=${options.keyId}`);
    }
    if (parts.length === 1) throw new TypeError('generateTestHeader: pass a secret, a privateKey with keyId, or both.');
    return parts.join(',');
  }

  private checkV1(parsed: ParsedHeader, message: Uint8Array, rawBody: RawBody, secret: string | undefined, problems: Problem[]): boolean {
    if (secret === undefined) return false;
    if (!/^[0-9a-fA-F]{64}$/.test(secret)) {
      problems.push({
        reason: 'invalid_secret',
        message: 'The secret is not an endpoint secret (64 hex characters, shown once when the endpoint was created).',
      });
      return false;
    }
    if (parsed.v1.length === 0) {
      problems.push({ reason: 'no_signature', message: 'The header has no v1 signature to check the secret against.' });
      return false;
    }
    const expected = this.crypto.hmacSha256Hex(secretBytes(secret), message);
    if (parsed.v1.some((signature) => this.crypto.timingSafeEqual(signature.toLowerCase(), expected))) return true;
    problems.push(
      isCompactJson(rawBody)
        ? {
            reason: 'wrong_secret',
            message:
              'No v1 signature matches this secret: check it is the secret of this endpoint and mode (test and live endpoints have their own), or the body changed since signing.',
          }
        : {
            reason: 'body_changed',
            message:
              'No v1 signature matches: the body changed since signing (it is not the compact JSON the service sends; pass the raw body, not parsed and re-serialized JSON).',
          },
    );
    return false;
  }

  private checkV2(parsed: ParsedHeader, message: Uint8Array, publicKeys: PublicKeys | undefined, problems: Problem[]): boolean {
    if (publicKeys === undefined) return false;
    if (parsed.v2.length === 0 || parsed.v2Kid === undefined) {
      problems.push({ reason: 'no_signature', message: 'The header has no v2 signature with a key id to check the public keys against.' });
      return false;
    }
    const keys = keysById(publicKeys);
    // Own properties only: a key id such as `__proto__` must not reach the object's prototype.
    const key = Object.prototype.hasOwnProperty.call(keys, parsed.v2Kid) ? keys[parsed.v2Kid] : undefined;
    if (typeof key !== 'string') {
      problems.push({ reason: 'unknown_key_id', message: `Unknown key id ${parsed.v2Kid}: fetch the current keys from GET /v1/webhook_public_keys.` });
      return false;
    }
    if (parsed.v2.some((signature) => this.crypto.verifyEd25519(key, message, signature))) return true;
    // The platform key is the right one, so only the signed bytes can differ.
    problems.push({
      reason: 'body_changed',
      message: `The v2 signature does not match under key ${parsed.v2Kid}: the body or timestamp changed since signing (pass the raw body exactly as received).`,
    });
    return false;
  }

  private async refreshKeys(): Promise<void> {
    if (!this.fetchPublicKeys) throw new SignatureVerificationError('no_verifier', 'No API client to fetch public keys with: pass {secret} or {publicKeys}.');
    // A flood of deliveries naming an unknown key must not become a flood of key fetches.
    if (Date.now() - this.lastFetch < 10_000) return;
    this.lastFetch = Date.now();
    for (const key of (await this.fetchPublicKeys()).data) this.keyCache.set(key.id, key.public_key);
  }
}

function parseHeader(header: string | null | undefined): ParsedHeader {
  if (typeof header !== 'string' || header.trim() === '') {
    throw new SignatureVerificationError('malformed_header', 'No X-Webhook-Signature header: was the delivery sent by the payment service?');
  }
  const parsed: ParsedHeader = { t: '', v1: [], v2: [], v2Kid: undefined };
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    // Unknown fields are ignored, as the API asks: new ones may be added.
    if (name === 't') parsed.t = value;
    else if (name === 'v1') parsed.v1.push(value);
    else if (name === 'v2') parsed.v2.push(value);
    else if (name === 'v2_kid') parsed.v2Kid = value;
  }
  if (!/^[0-9]{1,12}$/.test(parsed.t)) throw new SignatureVerificationError('malformed_header', 'The signature header has no t=<unix seconds>.');
  if (parsed.v1.length === 0 && parsed.v2.length === 0)
    throw new SignatureVerificationError('no_signature', 'The signature header carries neither a v1 nor a v2 signature.');
  return parsed;
}

function bodyBytes(rawBody: RawBody): Uint8Array {
  if (typeof rawBody === 'string') return encoder.encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  throw new SignatureVerificationError(
    'body_changed',
    'The body must be the raw request body (a string or Buffer) exactly as received; parsed JSON cannot be verified.',
  );
}

/** Whether the body is byte for byte what JSON.stringify makes of it: the form the service signs. */
function isCompactJson(rawBody: RawBody): boolean {
  const text = typeof rawBody === 'string' ? rawBody : decoder.decode(rawBody);
  try {
    return JSON.stringify(JSON.parse(text)) === text;
  } catch {
    return false;
  }
}

const isKeyArray = (keys: PublicKeys): keys is readonly WebhookPublicKey[] => Array.isArray(keys);
const isKeyList = (keys: PublicKeys): keys is List<WebhookPublicKey> => !isKeyArray(keys) && keys.object === 'list' && Array.isArray(keys.data);

function keysById(publicKeys: PublicKeys): Readonly<Record<string, string>> {
  const byId = (list: readonly WebhookPublicKey[]) => Object.fromEntries(list.map((key) => [key.id, key.public_key]));
  if (isKeyArray(publicKeys)) return byId(publicKeys);
  if (isKeyList(publicKeys)) return byId(publicKeys.data);
  return publicKeys;
}

function secretBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
