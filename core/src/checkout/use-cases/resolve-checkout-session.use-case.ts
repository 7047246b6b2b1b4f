import type { CheckoutSession, CheckoutSessionRepository, PaymentIntentRepository } from '../../payments';
import { EXPIRABLE, type PaymentIntent } from '../../payments';
import type { Clock, Digest } from '../../common';
import { CoreError } from '../../common';

/** A live checkout session and the intent it pays. */
export interface OpenCheckoutSession {
  readonly session: CheckoutSession;
  readonly intent: PaymentIntent;
}

/**
 * Unknown tokens and expired sessions answer with one message each, never naming the token, so
 * the body says nothing about which tokens exist beyond the status.
 */
export function checkoutSessionNotFound(): CoreError {
  return new CoreError('resource_not_found', 'not_found', 'This checkout session does not exist or is no longer available.');
}

export function checkoutSessionExpired(): CoreError {
  return new CoreError('checkout_session_expired', 'gone', 'This checkout session has expired; ask the merchant for a new payment link.');
}
export interface ResolveCheckoutSessionDeps {
  readonly sessions: CheckoutSessionRepository;
  readonly intents: PaymentIntentRepository;
  readonly digest: Digest;
  readonly clock: Clock;
}

/**
 * The hosted checkout's only authority is the token in the path: its SHA-256 digest finds the
 * session. An unknown token and a session expired by its own clock are refused after the same
 * single lookup, so timing tells them apart no more than the status does. A session that is still
 * running reads its intent, whose expiry may have moved earlier (test advance) or already fired.
 */
export class ResolveCheckoutSession {
  constructor(private readonly deps: ResolveCheckoutSessionDeps) {}

  /** The session of `token` without checking expiry: undefined when unknown. */
  async find(token: string): Promise<CheckoutSession | undefined> {
    return this.deps.sessions.findByTokenDigest(this.deps.digest.sha256Hex(token));
  }

  /** Throws 404 `resource_not_found` for an unknown token and 410 `checkout_session_expired` after expiry. */
  async execute(token: string, found?: CheckoutSession): Promise<OpenCheckoutSession> {
    const session = found ?? (await this.find(token));
    if (!session) throw checkoutSessionNotFound();
    const now = this.deps.clock.now();
    if (session.expiresAt <= now) throw checkoutSessionExpired();
    const intent = await this.deps.intents.findById({ merchantId: session.merchantId, mode: session.mode }, session.paymentIntentId);
    if (!intent) throw checkoutSessionNotFound();
    if (intent.status === 'expired' || (EXPIRABLE.includes(intent.status) && intent.expiresAt !== undefined && intent.expiresAt <= now))
      throw checkoutSessionExpired();
    return { session, intent };
  }
}
