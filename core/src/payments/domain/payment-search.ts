/**
 * What a merchant reads beside the channel's status: where the payment's money went after it was
 * paid. A payment has at most one of each kind: a refund status (`refunded`: its refunds that did
 * not fail cover the whole amount; `partially_refunded`: some of it) and a dispute status
 * (`disputed`: a dispute is open and holds its net; else `dispute_lost`: one was lost and the
 * channel took the payment back; else `dispute_won`).
 */
export const MONEY_STATUSES = ['refunded', 'partially_refunded', 'disputed', 'dispute_won', 'dispute_lost'] as const;
export type MoneyStatus = (typeof MONEY_STATUSES)[number];

/** A payment's disputes as its money status reads them. */
export type PaymentDisputeOutcome = 'open' | 'won' | 'lost';

/** The money statuses of a payment (refund status first), from its refunded amount and its disputes' outcomes. */
export function moneyStatuses(
  intent: { readonly amount: number; readonly amountRefunded?: number },
  disputes: readonly PaymentDisputeOutcome[],
): MoneyStatus[] {
  const statuses: MoneyStatus[] = [];
  const refunded = intent.amountRefunded ?? 0;
  if (refunded >= intent.amount) statuses.push('refunded');
  else if (refunded > 0) statuses.push('partially_refunded');
  if (disputes.includes('open')) statuses.push('disputed');
  else if (disputes.includes('lost')) statuses.push('dispute_lost');
  else if (disputes.includes('won')) statuses.push('dispute_won');
  return statuses;
}

/**
 * The key a merchant_order_id is searched by: the same text in lower case, stored beside it, so a
 * search is case-insensitive and still reads an index (a prefix of the key).
 */
export function merchantOrderSearchKey(merchantOrderId: string): string {
  return merchantOrderId.toLowerCase();
}
