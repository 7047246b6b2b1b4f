import type { Mode, Money } from '../../common';
import type { PaymentDisputeOutcome } from '../../payments';

export type DisputeStatus = 'opened' | 'under_review' | 'won' | 'lost';
export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['opened', 'under_review', 'won', 'lost'];

/** Statuses that carry a ruling: no more evidence, no more money movement. */
export const RULED_DISPUTE_STATUSES: readonly DisputeStatus[] = ['won', 'lost'];

/** `due_by` = opened + 7 days (docs/disputes.md). */
export const DISPUTE_RESPONSE_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** What a lost dispute costs by default, in minor units of the settlement currency (configurable). */
export const DEFAULT_DISPUTE_FEE_MINOR = 1500;

/** Evidence values the merchant sends: strings keyed by evidence name; merged key by key. */
export type DisputeEvidence = Readonly<Record<string, string>>;

/**
 * A channel's claim against a paid intent. `held` is the intent's net in the settlement currency,
 * moved to dispute_hold while the dispute is open; `heldFrom` says which bucket it left (pending
 * before the release timer fired, available after).
 */
export interface Dispute {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly paymentIntentId: string;
  readonly status: DisputeStatus;
  /** What the channel claims back, in the currency the payer paid in. */
  readonly amount: number;
  readonly currency: string;
  readonly held?: Money;
  readonly heldFrom?: 'pending' | 'available';
  /** Set when lost: what the loss costs on top of the claim. */
  readonly fee?: Money;
  readonly reason?: string;
  readonly evidence: DisputeEvidence;
  /** The channel that opened it and its own id for it. */
  readonly channel: string;
  readonly channelDisputeId: string;
  readonly dueBy: Date;
  readonly openedAt: Date;
  readonly closedAt?: Date;
  readonly created: Date;
  readonly updated: Date;
}

export function isRuled(dispute: Pick<Dispute, 'status'>): boolean {
  return RULED_DISPUTE_STATUSES.includes(dispute.status);
}

/** How a payment's money status reads the dispute: open until it is ruled. */
export function disputeOutcome(status: DisputeStatus): PaymentDisputeOutcome {
  return status === 'won' || status === 'lost' ? status : 'open';
}
