import type { Mode } from '../../common';
import { token } from '../../common';

/**
 * The hosted checkout session of an intent, made with it (CreatePaymentIntent) and opened by the
 * checkout module. Only the token's digest is stored.
 */
export interface CheckoutSession {
  readonly tokenDigest: string;
  readonly paymentIntentId: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly expiresAt: Date;
  readonly created: Date;
}

export interface CheckoutSessionRepository {
  insert(session: CheckoutSession): Promise<void>;
  /** The session whose token has this digest, expired or not; undefined when unknown. */
  findByTokenDigest(tokenDigest: string): Promise<CheckoutSession | undefined>;
}
export const CheckoutSessionRepository = token<CheckoutSessionRepository>('CheckoutSessionRepository');
