import type { WebhookCrypto } from '../ports/webhook-crypto.port';

export interface WebhookSignatureInput {
  readonly eventId: string;
  /** Unix seconds. */
  readonly timestamp: number;
  /** The exact body bytes sent. */
  readonly body: string;
  /** The endpoint secret: 64 hex characters encoding the 32-byte HMAC key. */
  readonly secretHex: string;
  readonly secretVersion: number;
  readonly platformKeyId: string;
  /** The platform key's raw private seed (standard base64), opened. */
  readonly platformPrivateKey: string;
}

/**
 * The signature headers of one attempt: ours (`X-Webhook-Signature`, message `"<t>.<body>"`) and
 * Standard Webhooks' (`webhook-id`, `webhook-timestamp`, `webhook-signature`, message
 * `"<id>.<t>.<body>"`), each with the endpoint's HMAC and the platform's Ed25519 signature.
 */
export function webhookSignatureHeaders(crypto: WebhookCrypto, input: WebhookSignatureInput): Record<string, string> {
  const t = String(input.timestamp);
  const ours = `${t}.${input.body}`;
  const standard = `${input.eventId}.${t}.${input.body}`;
  const v1 = crypto.hmacSha256(input.secretHex, ours).hex;
  const v2 = crypto.ed25519Sign(input.platformPrivateKey, ours);
  const standardHmac = crypto.hmacSha256(input.secretHex, standard).base64;
  const standardEd = crypto.ed25519Sign(input.platformPrivateKey, standard);
  return {
    'content-type': 'application/json; charset=utf-8',
    'x-webhook-signature': `t=${t},v1=${v1},v2=${v2},v1_kid=${input.secretVersion},v2_kid=${input.platformKeyId}`,
    'webhook-id': input.eventId,
    'webhook-timestamp': t,
    'webhook-signature': `v1,${standardHmac} v1a,${standardEd}`,
  };
}
