import type { Mode } from '../../common';
import { token } from '../../common';
import type { AttemptFailureCode } from '../domain/payment-attempt.entity';
import type { NextAction } from '../domain/payment-intent.entity';

/** Why a channel did not return a refund's money (the refunds capability's failure codes). */
export const REFUND_FAILURE_CODES = ['insufficient_channel_funds', 'channel_declined', 'expired_credential'] as const;
export type RefundFailureCode = (typeof REFUND_FAILURE_CODES)[number];

/** What a channel can do; routing and the simulate route read it. */
export interface ChannelCapabilities {
  /** The channel's name, as merchants pass it in `channel` and `channel_preference`. */
  readonly name: string;
  readonly modes: readonly Mode[];
  readonly methods: readonly string[];
  readonly currencies: readonly string[];
  /** Whether it can be told what to report (test mode's simulate route). */
  readonly canSimulate: boolean;
  /** How long an order may stay pending before the reconciler asks the channel about it. */
  readonly pendingTimeoutMs: number;
}

export interface PlaceOrderRequest {
  readonly mode: Mode;
  /**
   * The merchant whose order it is. Channels that hold credentials per merchant (`servesMerchant`)
   * place the order with that merchant's; the others may ignore it.
   */
  readonly merchantId?: string;
  /** Our reference for the order: the attempt id. Placing twice with one reference is one order. */
  readonly reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly paymentMethod: string;
  /** Where the channel sends its signed callbacks for this order. */
  readonly callbackUrl: string;
  /**
   * Where the channel sends the payer back after an off-site step (a wallet's own page): the
   * intent's `return_url`, when it has one. Channels that need it for a method refuse the order
   * without it.
   */
  readonly returnUrl?: string;
  readonly expiresAt: Date;
}

export type PlaceOrderResult =
  | { readonly outcome: 'placed'; readonly channelOrderId: string; readonly nextAction: NextAction }
  | { readonly outcome: 'refused'; readonly failureCode: AttemptFailureCode; readonly message: string };

/** The channel's own record of an order: what the confirming query answers. */
export interface ChannelOrderStatus {
  readonly channelOrderId: string;
  readonly reference: string;
  readonly status: 'pending' | 'processing' | 'paid' | 'failed';
  /** What the channel recorded as paid; decides a success together with `status`. */
  readonly amount: number;
  readonly currency: string;
  readonly failureCode?: AttemptFailureCode;
  /** Set once the channel reports the funds settled to the platform. */
  readonly settledAt?: Date;
}

/**
 * The confirming query's answer from the channel's record of an order (`id` being its order id),
 * so every adapter answers the same fields and leaves out the ones the order has not.
 */
export function channelOrderStatus(order: Omit<ChannelOrderStatus, 'channelOrderId'> & { readonly id: string }): ChannelOrderStatus {
  return {
    channelOrderId: order.id,
    reference: order.reference,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    ...(order.failureCode ? { failureCode: order.failureCode } : {}),
    ...(order.settledAt ? { settledAt: order.settledAt } : {}),
  };
}

/** A callback whose signature checked out. Its amount is a claim: only the query decides. */
export interface ChannelCallback {
  /** An order callback; optional so channels that only speak of orders need not name it. */
  readonly kind?: 'order';
  readonly channelOrderId: string;
  readonly reference: string;
  readonly reportedStatus: 'processing' | 'paid' | 'failed';
}

/** A dispute's status as the channel records it. */
export type ChannelDisputeStatusName = 'opened' | 'under_review' | 'won' | 'lost';

/**
 * A dispute notice whose signature checked out: only which dispute changed. Whatever else it
 * claims, only the dispute query (`queryDispute`) decides.
 */
export interface ChannelDisputeNotice {
  readonly kind: 'dispute';
  readonly channelDisputeId: string;
}

/**
 * A refund notice whose signature checked out: which refund changed (the channel's id and ours).
 * Only the refund query (`queryRefund`) decides what happened.
 */
export interface ChannelRefundNotice {
  readonly kind: 'refund';
  readonly channelRefundId: string;
  readonly reference: string;
}

/** What a channel's callback can be: news of an order, of a dispute against one, or of a refund of one. */
export type ChannelNotice = ChannelCallback | ChannelDisputeNotice | ChannelRefundNotice;

export interface PlaceRefundRequest {
  readonly mode: Mode;
  /** Our reference for the refund: the refund id. Placing twice with one reference is one refund. */
  readonly reference: string;
  /** The paid order the money goes back from. */
  readonly channelOrderId: string;
  /** In the currency the payer paid (the intent's). */
  readonly amount: number;
  readonly currency: string;
  readonly reason?: string;
  /** Where the channel sends its signed refund notices. */
  readonly callbackUrl: string;
}

export type PlaceRefundResult =
  | { readonly outcome: 'placed'; readonly channelRefundId: string }
  | { readonly outcome: 'refused'; readonly failureCode: RefundFailureCode; readonly message: string };

/** The channel's own record of a refund: what the refund query answers. */
export interface ChannelRefundStatus {
  readonly channelRefundId: string;
  /** Our reference (the refund id) and the order it refunds. */
  readonly reference: string;
  readonly channelOrderId: string;
  readonly status: 'pending' | 'succeeded' | 'failed';
  readonly amount: number;
  readonly currency: string;
  readonly failureCode?: RefundFailureCode;
}

/** The refund query's answer from the channel's record of a refund (`id` and `orderId` being the channel's). */
export function channelRefundStatus(
  refund: Omit<ChannelRefundStatus, 'channelRefundId' | 'channelOrderId'> & { readonly id: string; readonly orderId: string },
): ChannelRefundStatus {
  return {
    channelRefundId: refund.id,
    channelOrderId: refund.orderId,
    reference: refund.reference,
    status: refund.status,
    amount: refund.amount,
    currency: refund.currency,
    ...(refund.failureCode ? { failureCode: refund.failureCode } : {}),
  };
}

/** What a test-mode call tells a channel to report for a refund. */
export interface SimulatedRefundOutcome {
  readonly status: 'succeeded' | 'failed';
  readonly failureCode?: RefundFailureCode;
}

/** The channel's own record of a dispute: what the dispute query answers. */
export interface ChannelDisputeStatus {
  readonly channelDisputeId: string;
  /** The order it claims against, and our reference for that order (the attempt id). */
  readonly channelOrderId: string;
  readonly reference: string;
  readonly status: ChannelDisputeStatusName;
  /** What the channel claims back, in the currency the payer paid in. */
  readonly amount: number;
  readonly currency: string;
  readonly reason?: string;
}

/** The dispute query's answer from the channel's record of a dispute (`id` and `orderId` being the channel's). */
export function channelDisputeStatus(
  dispute: Omit<ChannelDisputeStatus, 'channelDisputeId' | 'channelOrderId'> & { readonly id: string; readonly orderId: string },
): ChannelDisputeStatus {
  return {
    channelDisputeId: dispute.id,
    channelOrderId: dispute.orderId,
    reference: dispute.reference,
    status: dispute.status,
    amount: dispute.amount,
    currency: dispute.currency,
    ...(dispute.reason ? { reason: dispute.reason } : {}),
  };
}

/** What a test-mode call tells a channel to do with the disputes of an order. */
export type SimulatedDisputeOutcome = 'opened' | 'won' | 'lost';

/** What a test-mode call tells a channel to report for an order. */
export interface SimulatedOutcome {
  readonly status: 'processing' | 'paid' | 'failed';
  readonly failureCode?: AttemptFailureCode;
  /** The amount the callback reports; the order book keeps what was really paid. */
  readonly amount?: number;
  readonly currency?: string;
}

/**
 * What one simulate call told a channel about an order, as `confirmSimulation` compares it: a
 * payment outcome, or a dispute outcome.
 */
export type SimulationInstruction =
  | { readonly kind: 'payment'; readonly outcome: SimulatedOutcome }
  | { readonly kind: 'dispute'; readonly outcome: SimulatedDisputeOutcome }
  | { readonly kind: 'refund'; readonly outcome: SimulatedRefundOutcome };

/** The kinds of money a channel's statement lists. */
export type StatementLineKind = 'payment' | 'refund' | 'chargeback' | 'fee';
export const STATEMENT_LINE_KINDS: readonly StatementLineKind[] = ['payment', 'refund', 'chargeback', 'fee'];

/**
 * One movement of money at the channel, as its statement lists it: a line exists only for what
 * the channel actually moved (an order paid, a refund that succeeded, a dispute lost, a fee
 * charged); a pending or failed refund, an open or won dispute, have none.
 */
export interface StatementLine {
  readonly kind: StatementLineKind;
  /**
   * The reference the service gave the channel (the attempt id of a payment, the refund id of a
   * refund; for a fee, that of what it was charged for) or, for a chargeback, the channel's own
   * dispute id.
   */
  readonly reference: string;
  /** The channel's own id of what moved (its order, refund, dispute or fee id): unique per kind. */
  readonly channelId: string;
  /**
   * Signed minor units of `currency` (what the payer paid in): + collected for a payment, + paid
   * out for a refund or a chargeback, + charged for a fee; a correction is a later line with the
   * negative.
   */
  readonly amount: number;
  readonly currency: string;
  /** When the channel moved it, by the channel's clock. */
  readonly occurredAt: Date;
}

/** Which part of the statement to read: the lines after `after` (a cursor a statement answered), at most `limit`. */
export interface StatementQuery {
  /** Absent: from the start of the channel's statement. */
  readonly after?: string;
  readonly limit: number;
}

/**
 * A page of a channel's statement, in the channel's order. Lines never change and a later page
 * never holds a line that belongs before `next`: what was read once is never read again.
 */
export interface ChannelStatement {
  readonly lines: readonly StatementLine[];
  /** Where the next read starts (`StatementQuery.after`); the same cursor when nothing was new. */
  readonly next: string;
  /** Whether more lines wait after `next` already. */
  readonly hasMore: boolean;
  /** The channel's clock when it answered: the statement is complete up to then. */
  readonly asOf: Date;
}

/**
 * A payment channel: QR or wallet provider. Adapters translate their protocol to this port;
 * nothing a channel answers reaches a merchant except through our own objects.
 */
export interface PaymentChannel {
  readonly capabilities: ChannelCapabilities;
  /**
   * Places an order, idempotently on `reference`. A channel that declines answers `refused`;
   * a channel that cannot be reached or answers nonsense also answers `refused` with
   * `channel_error` (never throws for the channel's own failures).
   */
  placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult>;
  /**
   * The confirming query: the channel's record of the order. Throws CoreError `channel_error`
   * (unavailable) when the channel cannot answer; a success is never inferred from a failure.
   */
  queryOrder(mode: Mode, channelOrderId: string): Promise<ChannelOrderStatus>;
  /**
   * Checks a callback's signature over its raw body and parses it: an order callback or a
   * dispute notice (`kind`). Throws (or rejects with) CoreError `invalid_signature`
   * (authentication) or `invalid_callback` (validation) and changes nothing. A channel whose keys
   * live in a store (per merchant) answers a promise.
   */
  verifyCallback(mode: Mode, headers: Readonly<Record<string, string | undefined>>, rawBody: string): ChannelNotice | Promise<ChannelNotice>;
  /**
   * Whether this channel can take `merchantId`'s payments in `mode`: a channel that holds
   * credentials per merchant answers whether the operator set that merchant's. Routing passes over
   * a channel that answers false. Channels that serve every merchant leave it out.
   */
  servesMerchant?(merchantId: string, mode: Mode): Promise<boolean>;
  /** Voids an order the payer may no longer pay (expiry, cancel). Best effort: failures are logged by the caller. */
  voidOrder(mode: Mode, channelOrderId: string): Promise<void>;
  /**
   * Test mode only, when `capabilities.canSimulate`: records the outcome and delivers the
   * channel's signed callback over HTTP, resolving once our callback route answered.
   * `simulationKey` (the simulate request's Idempotency-Key) is remembered with the outcome, so a
   * retry of that request can be recognised by `confirmSimulation`; channels may ignore it.
   */
  simulate?(mode: Mode, channelOrderId: string, outcome: SimulatedOutcome, simulationKey?: string): Promise<void>;
  /**
   * The confirming query of disputes: the channel's record of one. Only its answer opens or
   * rules a dispute, never a notice. Throws CoreError `channel_error` (unavailable) when the
   * channel cannot answer. Channels that never notify disputes leave it out.
   */
  queryDispute?(mode: Mode, channelDisputeId: string): Promise<ChannelDisputeStatus>;
  /**
   * Forwards the merchant's evidence (the whole merged set, so a repeat is harmless) to the
   * channel, which rules on the dispute later. Throws CoreError `channel_error` (unavailable) when
   * the channel did not take it, and then nothing may be stored.
   */
  submitDisputeEvidence?(mode: Mode, channelDisputeId: string, evidence: Readonly<Record<string, string>>): Promise<void>;
  /**
   * Test mode only, when `capabilities.canSimulate`: opens a dispute over the whole ordered amount
   * of a paid order, or rules (won, lost) on the dispute opened before, in the channel's own book,
   * then delivers the signed dispute notice over HTTP, resolving once our callback route answered.
   * Throws CoreError `invalid_state_transition` (conflict) for an order that is not paid, a second
   * open dispute, or a ruling with no open dispute. `simulationKey` as for `simulate`.
   */
  simulateDispute?(mode: Mode, channelOrderId: string, outcome: SimulatedDisputeOutcome, simulationKey?: string): Promise<void>;
  /**
   * Places a refund of a paid order, idempotently on `reference` (the refund id): placing it again
   * answers the refund placed before. A channel that declines answers `refused` with its reason;
   * throws CoreError `channel_error` (unavailable) when it cannot be reached, and then whether the
   * refund was placed is unknown: the refund reconciler places it again. Channels that cannot
   * refund leave it out.
   */
  placeRefund?(request: PlaceRefundRequest): Promise<PlaceRefundResult>;
  /**
   * The confirming query of refunds: the channel's record of one. Only its answer settles a
   * refund, never a notice. Throws CoreError `channel_error` (unavailable) when the channel cannot
   * answer.
   */
  queryRefund?(mode: Mode, channelRefundId: string): Promise<ChannelRefundStatus>;
  /**
   * Test mode only, when `capabilities.canSimulate`: records what the channel reports for a
   * pending refund, then delivers the signed refund notice over HTTP, resolving once our callback
   * route answered. Throws CoreError `invalid_state_transition` (conflict) for a refund the channel
   * already settled. `simulationKey` as for `simulate`; `channelOrderId` in `confirmSimulation`
   * is then the refund's channel id.
   */
  simulateRefund?(mode: Mode, channelRefundId: string, outcome: SimulatedRefundOutcome, simulationKey?: string): Promise<void>;
  /**
   * Test mode only: whether this order was told `instruction` by a simulate call under
   * `simulationKey` (a retried request whose first try took effect). When it was and its
   * callback never reached our route, delivers it again and resolves once our route answered;
   * throws CoreError `api_error` (unavailable) when that delivery fails. A channel that keeps no
   * such record leaves it out, and a retry after the first try took effect is then refused.
   */
  confirmSimulation?(mode: Mode, channelOrderId: string, instruction: SimulationInstruction, simulationKey: string): Promise<boolean>;
  /**
   * The channel's statement of `mode`: every payment it collected, refund it paid, chargeback it
   * took and fee it charged, page by page after a cursor (`ChannelStatement`), for the
   * reconciliation with the ledger. Throws CoreError `channel_error` (unavailable) when the
   * channel cannot answer. Channels that keep no statement leave it out, and are not reconciled.
   */
  statement?(mode: Mode, query: StatementQuery): Promise<ChannelStatement>;
}

/** Every channel adapter the composition root registered, in routing order. */
export interface PaymentChannelRegistry {
  /** The channel of this name, or undefined. */
  find(name: string): PaymentChannel | undefined;
  /** The channels usable in `mode`, in routing order. */
  forMode(mode: Mode): readonly PaymentChannel[];
}
export const PaymentChannelRegistry = token<PaymentChannelRegistry>('PaymentChannelRegistry');
