/**
 * The ids this channel hands the service: `<merchant id>:<Stripe id>`. Each merchant has its own
 * Stripe account, and the port's later calls (the confirming query, refunds, disputes) carry only
 * the id; so the id itself says whose keys to ask with. Stripe's ids hold no colon; ours neither.
 */
export interface ScopedStripeId {
  readonly merchantId: string;
  readonly stripeId: string;
}

const SCOPED_ID = /^([A-Za-z0-9_-]{1,64}):([A-Za-z0-9_]{1,255})$/;

export function scopedId(merchantId: string, stripeId: string): string {
  return `${merchantId}:${stripeId}`;
}

/** The merchant and Stripe id of an id this channel made, or undefined for any other text. */
export function parseScopedId(id: string): ScopedStripeId | undefined {
  const match = SCOPED_ID.exec(id);
  return match ? { merchantId: match[1] ?? '', stripeId: match[2] ?? '' } : undefined;
}
