import { isSyncCryptoProvider, type CryptoProvider, type SyncCryptoProvider } from './crypto/crypto-provider.js';
import { fromBase64, fromHex, toBase64, toHex } from './crypto/encoding.js';
import { SignatureVerificationError, type SignatureFailureReason } from './errors.js';
import type { Event, List, WebhookPublicKey } from './types.js';
import { parseSignatures, type OwnSignatures, type ParsedSignatures, type SignatureHeaders, type StandardSignatures } from './webhooks/headers.js';
import { PlatformKeyCache } from './webhooks/platform-keys.js';
import { WebhookRecipient, type RecipientOptions } from './webhooks/recipient.js';

export { SIGNATURE_HEADER, STANDARD_HEADERS, type HeaderGetter, type HeaderRecord, type SignatureHeaders } from './webhooks/headers.js';
export { PLATFORM_KEYS_MAX_AGE_SECONDS, REMOVED_KEY_GRACE_SECONDS } from './webhooks/platform-keys.js';

/** How far the timestamp may be from this machine's clock, either way (the API's rule: 300 seconds). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Public keys by id (`{key_…: base64}`), or the list `GET /v1/webhook_public_keys` answered. */
export type PublicKeys = Readonly<Record<string, string>> | readonly WebhookPublicKey[] | List<WebhookPublicKey>;

/** What to check a signature with: the endpoint's secret (v1), the platform's keys (v2), or both. */
export interface WebhookVerifier {
  /**
   * The endpoint secret: 64 hex characters, shown once when the endpoint was created (or the same
   * 32 bytes as Standard Webhooks spells them, `whsec_` + base64).
   */
  secret?: string;
  publicKeys?: PublicKeys;
}

export interface ConstructEventOptions {
  /** Seconds the timestamp may be from this machine's clock; default 300. */
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

/** The raw body as received: a string, bytes (Buffer, Uint8Array) or an ArrayBuffer (`await request.arrayBuffer()`). */
export type RawBody = string | Uint8Array | ArrayBuffer;

interface Problem {
  reason: SignatureFailureReason;
  message: string;
}

/** One cryptographic check: any of `signatures` made over `message` with `key` passes it (`ed25519`: a platform key, the same for every merchant). */
interface Attempt {
  kind: 'hmac' | 'ed25519';
  key: Uint8Array;
  message: Uint8Array;
  signatures: Uint8Array[];
}

/** A way a delivery could verify (one scheme, one verifier), with what to say when it does not. */
interface Check {
  timestamp: string;
  attempts: Attempt[];
  problem: Problem;
}

/** Every check a delivery allows, and the problems found before any crypto ran. */
interface Plan {
  checks: Check[];
  problems: Problem[];
}

/** Order in which a failure is named when several apply: the most certain diagnosis first. */
const PRIORITY: readonly SignatureFailureReason[] = ['body_changed', 'wrong_secret', 'invalid_secret', 'unknown_key_id', 'no_signature'];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Verifies webhook deliveries, by `X-Webhook-Signature` or the Standard Webhooks headers.
 * `constructEventAsync` works in every runtime and can fetch the platform's public keys from the
 * API (cached by key id, fetched again when a delivery names a key not held yet, as after a
 * rotation); `constructEvent` is its synchronous twin for Node.
 *
 * A platform key signs every merchant's deliveries, so an event verified by one (v2, or Standard
 * Webhooks' v1a) must also name this client's merchant and mode, or it is refused
 * (`wrong_account`, `wrong_mode`): see WebhookRecipient. The endpoint secret (v1) is the
 * endpoint's own and needs no such check.
 */
export class Webhooks {
  private readonly keys: PlatformKeyCache | undefined;
  private readonly recipient: WebhookRecipient | undefined;

  constructor(
    private readonly crypto: CryptoProvider,
    fetchPublicKeys?: () => Promise<List<WebhookPublicKey>>,
    recipient?: RecipientOptions,
  ) {
    this.keys = fetchPublicKeys && new PlatformKeyCache(fetchPublicKeys);
    this.recipient = recipient && new WebhookRecipient(recipient);
  }

  /**
   * The event of a delivery, once a signature checks out: v1 against `secret`, or v2 against
   * `publicKeys` (either is enough), in either header scheme, and its timestamp within `tolerance`
   * seconds; by v2 alone, the event must also name this client's merchant (the client's `account`
   * option, or the one an earlier `constructEventAsync` looked up) and mode. Synchronous, so it
   * needs `node:crypto` (the Node build's default); everywhere else use `constructEventAsync`.
   * @param rawBody the body exactly as received (string or bytes), never re-serialized JSON
   * @param headers the request's headers (`req.headers`, a fetch `Headers`), or the `X-Webhook-Signature` value
   * @throws SignatureVerificationError whose `reason` and message say why
   */
  constructEvent<E extends Event = Event>(rawBody: RawBody, headers: SignatureHeaders, verifier: WebhookVerifier, options: ConstructEventOptions = {}): E {
    const crypto = this.syncCrypto('constructEvent', 'constructEventAsync');
    const body = bodyBytes(rawBody);
    const plan = planChecks(body, parseSignatures(headers), requireVerifier(verifier));
    const passed = plan.checks.find((check) => check.attempts.some((attempt) => runSync(crypto, attempt)));
    const { event, byKey } = decide<E>(plan, passed, body, options);
    if (byKey) this.recipientOrRefuse().checkSync(event);
    return event;
  }

  /**
   * Like `constructEvent`, in any runtime (WebCrypto or `node:crypto`). Without a verifier it
   * checks v2 against the platform keys of `GET /v1/webhook_public_keys`, fetched with the client's
   * API key and cached by key id (deliveries arriving together share one fetch). A client not
   * given its `account` looks its merchant up once, on the first delivery verified by v2: it
   * reads that event back (`GET /v1/events/{id}`), which the API answers only for the key's own
   * merchant and mode.
   */
  async constructEventAsync<E extends Event = Event>(
    rawBody: RawBody,
    headers: SignatureHeaders,
    verifier: WebhookVerifier = {},
    options: ConstructEventOptions = {},
  ): Promise<E> {
    const body = bodyBytes(rawBody);
    const signatures = parseSignatures(headers);
    if (verifier.secret !== undefined || verifier.publicKeys !== undefined) return this.verifyAsync<E>(body, signatures, verifier, options);
    const keys = this.keys;
    if (!keys)
      throw new SignatureVerificationError(
        'no_verifier',
        'No API key to fetch the platform keys with (a client made without one): pass {secret} or {publicKeys}.',
      );
    const kid = signatures.own?.v2Kid;
    await keys.ensure(kid);
    try {
      return await this.verifyAsync<E>(body, signatures, { publicKeys: keys.trusted() }, options);
    } catch (error) {
      // Standard Webhooks' v1a names no key: a key published since the last fetch can only be found by fetching.
      const keyless = kid === undefined && error instanceof SignatureVerificationError && error.reason === 'body_changed';
      if (!keyless || !keys.mayRefresh()) throw error;
      await keys.refresh();
      return this.verifyAsync<E>(body, signatures, { publicKeys: keys.trusted() }, options);
    }
  }

  /**
   * A signature header for `payload`, as the service would send it: for merchants' own tests of
   * their webhook handler. Needs a `secret` (v1), a `privateKey` with `keyId` (v2), or both.
   * Synchronous, so it needs `node:crypto`; everywhere else use `generateTestHeaderAsync`.
   */
  generateTestHeader(options: TestHeaderOptions): string {
    const crypto = this.syncCrypto('generateTestHeader', 'generateTestHeaderAsync');
    const { t, message } = testMessage(options);
    return testHeader(
      t,
      options,
      options.secret === undefined ? undefined : crypto.hmacSha256Sync(testSecret(options.secret), message),
      options.privateKey === undefined ? undefined : crypto.signEd25519Sync(options.privateKey, message),
    );
  }

  /** `generateTestHeader` in any runtime. */
  async generateTestHeaderAsync(options: TestHeaderOptions): Promise<string> {
    const { t, message } = testMessage(options);
    return testHeader(
      t,
      options,
      options.secret === undefined ? undefined : await this.crypto.hmacSha256(testSecret(options.secret), message),
      options.privateKey === undefined ? undefined : await this.crypto.signEd25519(options.privateKey, message),
    );
  }

  private async verifyAsync<E extends Event>(
    body: Uint8Array,
    signatures: ParsedSignatures,
    verifier: WebhookVerifier,
    options: ConstructEventOptions,
  ): Promise<E> {
    const plan = planChecks(body, signatures, requireVerifier(verifier));
    const { event, byKey } = decide<E>(plan, await firstPassing(this.crypto, plan.checks), body, options);
    if (byKey) await this.recipientOrRefuse().check(event);
    return event;
  }

  /** Who this client is, for key-signed deliveries; a Webhooks made without a client cannot say. */
  private recipientOrRefuse(): WebhookRecipient {
    if (this.recipient) return this.recipient;
    throw new SignatureVerificationError(
      'no_account',
      'The signature is valid, but a platform-key signature is the same for every merchant: verify with the webhooks of a Payments client made with an API key, which knows its merchant and mode.',
    );
  }

  private syncCrypto(method: string, asyncMethod: string): SyncCryptoProvider {
    if (!isSyncCryptoProvider(this.crypto)) {
      throw new TypeError(
        `${method} needs synchronous crypto (node:crypto), which this runtime's build does not use: await webhooks.${asyncMethod}(…) instead.`,
      );
    }
    return this.crypto;
  }
}

function requireVerifier(verifier: WebhookVerifier): WebhookVerifier {
  if (!verifier || (verifier.secret === undefined && verifier.publicKeys === undefined)) {
    throw new SignatureVerificationError('no_verifier', 'Pass the endpoint {secret} or the platform {publicKeys} to verify with.');
  }
  return verifier;
}

/** The checks each present scheme allows with this verifier, own header first. */
function planChecks(body: Uint8Array, signatures: ParsedSignatures, verifier: WebhookVerifier): Plan {
  const plan: Plan = { checks: [], problems: [] };
  const secret = verifier.secret === undefined ? undefined : secretBytes(verifier.secret);
  if (verifier.secret !== undefined && secret === undefined) {
    plan.problems.push({
      reason: 'invalid_secret',
      message: 'The secret is not an endpoint secret (64 hex characters, shown once when the endpoint was created).',
    });
  }
  const keys = verifier.publicKeys === undefined ? undefined : keysById(verifier.publicKeys);
  if (signatures.own) planOwn(plan, body, signatures.own, secret, keys);
  if (signatures.standard) planStandard(plan, body, signatures.standard, secret, keys);
  return plan;
}

function planOwn(plan: Plan, body: Uint8Array, own: OwnSignatures, secret: Uint8Array | undefined, keys: Readonly<Record<string, string>> | undefined): void {
  const message = concat(encoder.encode(`${own.t}.`), body);
  if (secret) {
    if (own.v1.length === 0) plan.problems.push({ reason: 'no_signature', message: 'The header has no v1 signature to check the secret against.' });
    else plan.checks.push({ timestamp: own.t, attempts: [{ kind: 'hmac', key: secret, message, signatures: own.v1 }], problem: hmacProblem(body, 'v1') });
  }
  if (!keys) return;
  if (own.v2.length === 0 || own.v2Kid === undefined) {
    plan.problems.push({ reason: 'no_signature', message: 'The header has no v2 signature with a key id to check the public keys against.' });
    return;
  }
  // Own properties only: a key id such as `__proto__` must not reach the object's prototype.
  const key = Object.prototype.hasOwnProperty.call(keys, own.v2Kid) ? keys[own.v2Kid] : undefined;
  const raw = typeof key === 'string' ? fromBase64(key) : undefined;
  if (!raw) {
    plan.problems.push({ reason: 'unknown_key_id', message: `Unknown key id ${own.v2Kid}: fetch the current keys from GET /v1/webhook_public_keys.` });
    return;
  }
  plan.checks.push({
    timestamp: own.t,
    attempts: [{ kind: 'ed25519', key: raw, message, signatures: own.v2 }],
    // The platform key is the right one, so only the signed bytes can differ.
    problem: {
      reason: 'body_changed',
      message: `The v2 signature does not match under key ${own.v2Kid}: the body or timestamp changed since signing (pass the raw body exactly as received).`,
    },
  });
}

function planStandard(
  plan: Plan,
  body: Uint8Array,
  standard: StandardSignatures,
  secret: Uint8Array | undefined,
  keys: Readonly<Record<string, string>> | undefined,
): void {
  const message = concat(encoder.encode(`${standard.id}.${standard.t}.`), body);
  if (secret) {
    if (standard.v1.length === 0)
      plan.problems.push({ reason: 'no_signature', message: 'The webhook-signature header has no v1 signature to check the secret against.' });
    else
      plan.checks.push({
        timestamp: standard.t,
        attempts: [{ kind: 'hmac', key: secret, message, signatures: standard.v1 }],
        problem: hmacProblem(body, 'webhook-signature v1'),
      });
  }
  if (!keys) return;
  if (standard.v1a.length === 0) {
    plan.problems.push({ reason: 'no_signature', message: 'The webhook-signature header has no v1a signature to check the public keys against.' });
    return;
  }
  const raws = Object.values(keys).flatMap((key) => fromBase64(key) ?? []);
  if (raws.length === 0) {
    plan.problems.push({
      reason: 'unknown_key_id',
      message: 'No platform public key to check the v1a signature with: fetch them from GET /v1/webhook_public_keys.',
    });
    return;
  }
  plan.checks.push({
    timestamp: standard.t,
    attempts: raws.map((key) => ({ kind: 'ed25519' as const, key, message, signatures: standard.v1a })),
    problem: {
      reason: 'body_changed',
      message:
        'No webhook-signature v1a signature matches a platform key: the body, webhook-id or webhook-timestamp changed since signing (pass the raw body exactly as received), or the key is newer than the list.',
    },
  });
}

/** Why an HMAC did not match: a body that is not what the service sends was changed; otherwise the secret is the likelier culprit. */
function hmacProblem(body: Uint8Array, name: string): Problem {
  return isCompactJson(body)
    ? {
        reason: 'wrong_secret',
        message: `No ${name} signature matches this secret: check it is the secret of this endpoint and mode (test and live endpoints have their own), or the body changed since signing.`,
      }
    : {
        reason: 'body_changed',
        message: `No ${name} signature matches: the body changed since signing (it is not the compact JSON the service sends; pass the raw body, not parsed and re-serialized JSON).`,
      };
}

function runSync(crypto: SyncCryptoProvider, attempt: Attempt): boolean {
  if (attempt.kind === 'ed25519') return attempt.signatures.some((signature) => crypto.verifyEd25519Sync(attempt.key, attempt.message, signature));
  const expected = crypto.hmacSha256Sync(attempt.key, attempt.message);
  return attempt.signatures.some((signature) => crypto.timingSafeEqual(signature, expected));
}

/** The first check (in the plan's order) that one of its attempts passes. */
async function firstPassing(crypto: CryptoProvider, checks: readonly Check[]): Promise<Check | undefined> {
  for (const check of checks) {
    for (const attempt of check.attempts) if (await runAsync(crypto, attempt)) return check;
  }
  return undefined;
}

async function runAsync(crypto: CryptoProvider, attempt: Attempt): Promise<boolean> {
  if (attempt.kind === 'hmac') {
    const expected = await crypto.hmacSha256(attempt.key, attempt.message);
    return attempt.signatures.some((signature) => crypto.timingSafeEqual(signature, expected));
  }
  for (const signature of attempt.signatures) if (await crypto.verifyEd25519(attempt.key, attempt.message, signature)) return true;
  return false;
}

/**
 * The event once `passed` verified (its timestamp in tolerance), and whether only a platform key
 * vouched for it (so its recipient is still to be checked); or the best-named failure.
 */
function decide<E extends Event>(plan: Plan, passed: Check | undefined, body: Uint8Array, options: ConstructEventOptions): { event: E; byKey: boolean } {
  if (!passed) {
    const problems = [...plan.problems, ...plan.checks.map((check) => check.problem)];
    problems.sort((a, b) => PRIORITY.indexOf(a.reason) - PRIORITY.indexOf(b.reason));
    const first = problems[0] ?? { reason: 'no_signature', message: 'The headers carry no signature this verifier can check.' };
    throw new SignatureVerificationError(first.reason, problems.map((problem) => problem.message).join(' ') || first.message);
  }
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  const age = Math.floor(Date.now() / 1000) - Number(passed.timestamp);
  if (Math.abs(age) > tolerance) {
    throw new SignatureVerificationError(
      'timestamp_outside_tolerance',
      `The signature is valid but its timestamp is ${Math.abs(age)} s ${age > 0 ? 'old' : 'in the future'} (tolerance ${tolerance} s): a replayed delivery, or this machine's clock is off.`,
    );
  }
  const byKey = passed.attempts.every((attempt) => attempt.kind === 'ed25519');
  try {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a verified body is the service's event, which types-agree holds to the API document
    return { event: JSON.parse(decoder.decode(body)) as E, byKey };
  } catch {
    throw new SignatureVerificationError('body_changed', 'The signature is valid but the body is not JSON.');
  }
}

function testMessage(options: TestHeaderOptions): { t: string; message: Uint8Array } {
  if (options.secret === undefined && options.privateKey === undefined)
    throw new TypeError('generateTestHeader: pass a secret, a privateKey with keyId, or both.');
  if (options.privateKey !== undefined && !options.keyId) throw new TypeError('generateTestHeader: a privateKey needs its keyId.');
  const t = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  return { t, message: concat(encoder.encode(`${t}.`), bodyBytes(options.payload)) };
}

function testHeader(t: string, options: TestHeaderOptions, v1: Uint8Array | undefined, v2: Uint8Array | undefined): string {
  const parts = [`t=${t}`];
  if (v1) parts.push(`v1=${toHex(v1)}`, `v1_kid=${options.secretVersion ?? 1}`);
  if (v2) parts.push(`v2=${toBase64(v2)}`, `v2_kid=${options.keyId}`);
  return parts.join(',');
}

function testSecret(secret: string): Uint8Array {
  const bytes = secretBytes(secret);
  if (!bytes) throw new TypeError('generateTestHeader: the secret must be 64 hex characters (or whsec_ and the base64 of 32 bytes).');
  return bytes;
}

/**
 * The body's bytes. Views are read by `ArrayBuffer.isView`, not `instanceof`, so bytes made in
 * another realm (a vm context, an iframe) are taken too.
 */
function bodyBytes(rawBody: RawBody): Uint8Array {
  if (typeof rawBody === 'string') return encoder.encode(rawBody);
  if (ArrayBuffer.isView(rawBody)) return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  if (Object.prototype.toString.call(rawBody) === '[object ArrayBuffer]') return new Uint8Array(rawBody);
  throw new SignatureVerificationError(
    'body_changed',
    'The body must be the raw request body (a string, Buffer or ArrayBuffer) exactly as received; parsed JSON cannot be verified.',
  );
}

/** Whether the body is byte for byte what JSON.stringify makes of it: the form the service signs. */
function isCompactJson(body: Uint8Array): boolean {
  const text = decoder.decode(body);
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

/** The 32 key bytes of an endpoint secret, as hex (ours) or `whsec_` + base64 (Standard Webhooks), or undefined. */
function secretBytes(secret: string): Uint8Array | undefined {
  const bytes = /^[0-9a-fA-F]{64}$/.test(secret) ? fromHex(secret) : secret.startsWith('whsec_') ? fromBase64(secret.slice('whsec_'.length)) : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
