import { createHmac } from 'node:crypto';

/** The header every request to the payout provider is signed in (docs/payouts/rest.md, section 2). */
export const PAYOUT_SIGNATURE_HEADER = 'payout-signature';

/**
 * The signed message: `<t>.<METHOD>.<path with query>.<raw body>` (empty body for GET), so a
 * signature cannot be replayed on another route or with another body.
 */
export function payoutSignedMessage(timestamp: number, method: string, path: string, rawBody: string): string {
  return `${timestamp}.${method.toUpperCase()}.${path}.${rawBody}`;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of the signed message under the shared secret>`. */
export function signPayoutRequest(secret: string, method: string, path: string, rawBody: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret)
    .update(payoutSignedMessage(timestamp, method, path, rawBody), 'utf8')
    .digest('hex');
  return `t=${timestamp},v1=${v1}`;
}
