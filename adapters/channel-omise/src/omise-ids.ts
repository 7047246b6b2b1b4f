/**
 * The ids this channel hands the service: `<merchant id>:<Omise id>`, and for a refund
 * `<merchant id>:<charge id>/<refund id>`. Each merchant has its own Omise account and the port's
 * later calls carry only the id, so the id says whose keys to ask with; Omise reads a refund only
 * through its charge (`GET /charges/{charge}/refunds/{refund}`), so a refund's id names both.
 */
export interface ScopedOmiseId {
  readonly merchantId: string;
  readonly omiseId: string;
}

export interface ScopedOmiseRefundId {
  readonly merchantId: string;
  readonly chargeId: string;
  readonly refundId: string;
}

const SCOPED_ID = /^([A-Za-z0-9_-]{1,64}):([A-Za-z0-9_]{1,255})$/;
const SCOPED_REFUND_ID = /^([A-Za-z0-9_-]{1,64}):(chrg_[A-Za-z0-9_]{1,200})\/(rfnd_[A-Za-z0-9_]{1,200})$/;

export function scopedId(merchantId: string, omiseId: string): string {
  return `${merchantId}:${omiseId}`;
}

export function scopedRefundId(merchantId: string, chargeId: string, refundId: string): string {
  return `${merchantId}:${chargeId}/${refundId}`;
}

/** The merchant and Omise id of an id this channel made, or undefined for any other text. */
export function parseScopedId(id: string): ScopedOmiseId | undefined {
  const match = SCOPED_ID.exec(id);
  return match ? { merchantId: match[1] ?? '', omiseId: match[2] ?? '' } : undefined;
}

export function parseScopedRefundId(id: string): ScopedOmiseRefundId | undefined {
  const match = SCOPED_REFUND_ID.exec(id);
  return match ? { merchantId: match[1] ?? '', chargeId: match[2] ?? '', refundId: match[3] ?? '' } : undefined;
}
