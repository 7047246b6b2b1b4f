import { createHmac, createPrivateKey, randomBytes, sign } from 'node:crypto';
import type { Event, Payments } from '@payments/sdk';
import { SIGNATURE_HEADER } from '@payments/sdk';
import type { ConfigStore } from './config.js';
import { UsageError } from './exit-codes.js';
import type { ListenKey } from './listen-keys.js';

/** What one forwarded delivery did; printed as a status line or a JSON line. */
export interface Delivery {
  event: string;
  type: string;
  url: string;
  /** The receiver's HTTP status; absent when it could not be reached. */
  status?: number;
  ok: boolean;
  error?: string;
  duration_ms: number;
}

/** The receiver's timeout, the same 10 seconds the service gives real endpoints. */
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The profile's local signing secret, made on first use: 64 hex characters like a real endpoint
 * secret, so a receiver verifies forwarded events with the same code it runs in production.
 */
export function webhookSecret(store: ConfigStore, profile: string): string {
  const existing = store.profile(profile).webhook_secret;
  if (existing && /^[0-9a-f]{64}$/.test(existing)) return existing;
  const secret = randomBytes(32).toString('hex');
  store.updateProfile(profile, { webhook_secret: secret });
  return secret;
}

/** The secret as Standard Webhooks libraries take it: `whsec_` + base64 of its 32 bytes. */
export function standardWebhooksSecret(secretHex: string): string {
  return `whsec_${Buffer.from(secretHex, 'hex').toString('base64')}`;
}

/** What a forwarded event is signed with: the profile's secret, and the run's key (none for `events resend`). */
export interface Signer {
  secret: string;
  key?: ListenKey;
}

/**
 * The signature headers the service sends (docs/webhooks.md), made with local stand-ins for its
 * secrets: `X-Webhook-Signature` (`t`, `v1` HMAC with the secret, `v2` Ed25519 with the run's key,
 * by the SDK's generateTestHeader) and Standard Webhooks' `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` (`v1,` HMAC and `v1a,` Ed25519 over `<id>.<t>.<body>`). So a handler
 * written against any of the verifiers the service supports accepts forwarded events.
 */
export function signatureHeaders(client: Payments, signer: Signer, eventId: string, body: string, timestamp: number): Record<string, string> {
  const { secret, key } = signer;
  const ours = client.webhooks.generateTestHeader({ payload: body, secret, timestamp, ...(key ? { privateKey: key.privateKeyPem, keyId: key.id } : {}) });
  const standard = Buffer.from(`${eventId}.${timestamp}.${body}`, 'utf8');
  const signatures = [`v1,${createHmac('sha256', Buffer.from(secret, 'hex')).update(standard).digest('base64')}`];
  if (key) signatures.push(`v1a,${sign(null, standard, createPrivateKey(key.privateKeyPem)).toString('base64')}`);
  return {
    [SIGNATURE_HEADER]: ours,
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}

export function checkForwardUrl(url: string | undefined): string {
  if (!url) throw new UsageError('--forward-to <url> is required, e.g. --forward-to http://localhost:3000/webhooks.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--forward-to must be an http(s) URL, not ${JSON.stringify(url)}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError('--forward-to must be an http(s) URL.');
  return parsed.toString();
}

/** POSTs the event as the service would: the compact JSON body, its signature headers, no redirects, 10 seconds. */
export async function forwardEvent(client: Payments, signer: Signer, event: Event, url: string): Promise<Delivery> {
  const body = JSON.stringify(event);
  const headers = signatureHeaders(client, signer, event.id, body, Math.floor(Date.now() / 1000));
  const started = Date.now();
  const base = { event: event.id, type: event.type, url };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers, 'user-agent': 'payments-cli-listen' },
      body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      redirect: 'manual',
    });
    // The body is not used, but reading it lets the connection be reused.
    await response.arrayBuffer().catch(() => undefined);
    return { ...base, status: response.status, ok: response.status >= 200 && response.status < 300, duration_ms: Date.now() - started };
  } catch (error) {
    const message =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
        : (causeText(error) ?? (error instanceof Error ? error.message : String(error)));
    return { ...base, ok: false, error: message, duration_ms: Date.now() - started };
  }
}

/** What fetch's network error says underneath (ECONNREFUSED, a DNS failure), if it says anything. */
function causeText(error: unknown): string | undefined {
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  if (typeof cause !== 'object' || cause === null) return undefined;
  const code: unknown = 'code' in cause ? cause.code : undefined;
  const message: unknown = 'message' in cause ? cause.message : undefined;
  return typeof code === 'string' ? code : typeof message === 'string' ? message : undefined;
}

/** `2026-09-01T10:00:00Z  payment_intent.succeeded  evt_…  → POST http://… [200] 12 ms` */
export function deliveryLine(delivery: Delivery, now = new Date()): string {
  const outcome = delivery.status === undefined ? `[failed: ${delivery.error}]` : `[${delivery.status}]`;
  return `${now.toISOString().replace(/\.\d{3}Z$/, 'Z')}  ${delivery.type}  ${delivery.event}  --> POST ${delivery.url} ${outcome} ${delivery.duration_ms} ms`;
}
