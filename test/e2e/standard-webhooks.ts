import { verify as cryptoVerify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** What the verifiers need of a recorded request (a `RecordedWebhook` from webhook-receiver.ts fits). */
export interface SignedRequest {
  readonly headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  readonly rawBody: Buffer;
}

/** The endpoint secret (64 hex characters) as the standardwebhooks package takes it: `whsec_` + base64 of the 32 bytes. */
export function standardWebhooksSecret(endpointSecretHex: string): string {
  return `whsec_${Buffer.from(endpointSecretHex, 'hex').toString('base64')}`;
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  if (typeof value !== 'string') throw new Error(`missing header ${name}`);
  return value;
}

/**
 * Verifies the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`
 * with a `v1,` HMAC-SHA256 over `<id>.<timestamp>.<body>`) of a recorded request with the
 * `standardwebhooks` package, keyed by the endpoint secret. Returns the parsed body; throws the
 * package's WebhookVerificationError on a bad signature or a timestamp more than 300 s from `at`
 * (default: now; pass the fake clock's time in tests that move time).
 */
export function verifyStandardWebhook(request: SignedRequest, endpointSecretHex: string, at?: Date): unknown {
  const webhook = new Webhook(standardWebhooksSecret(endpointSecretHex));
  const headers = {
    'webhook-id': header(request.headers, 'webhook-id'),
    'webhook-timestamp': header(request.headers, 'webhook-timestamp'),
    'webhook-signature': header(request.headers, 'webhook-signature'),
  };
  if (at === undefined) return webhook.verify(request.rawBody.toString('utf8'), headers);
  // The package reads Date.now(); verify() is synchronous, so a stand-in for its duration is safe.
  const realNow = Date.now;
  Date.now = () => at.getTime();
  try {
    return webhook.verify(request.rawBody.toString('utf8'), headers);
  } finally {
    Date.now = realNow;
  }
}

/**
 * Verifies the `v1a,` (Ed25519) entry of `webhook-signature` over `<id>.<timestamp>.<body>` with a
 * platform public key (raw 32 bytes, base64, as GET /v1/webhook_public_keys lists it). The
 * standardwebhooks package checks only `v1,`, so this one uses node:crypto. True when any `v1a,`
 * entry verifies; the timestamp tolerance is not checked here (verifyStandardWebhook does).
 */
export function verifyStandardWebhookEd25519(request: SignedRequest, publicKeyBase64: string): boolean {
  const id = header(request.headers, 'webhook-id');
  const timestamp = header(request.headers, 'webhook-timestamp');
  const message = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), request.rawBody]);
  const key = {
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKeyBase64, 'base64')]),
    format: 'der' as const,
    type: 'spki' as const,
  };
  return header(request.headers, 'webhook-signature')
    .split(' ')
    .filter((entry) => entry.startsWith('v1a,'))
    .some((entry) => cryptoVerify(null, message, key, Buffer.from(entry.slice(4), 'base64')));
}
