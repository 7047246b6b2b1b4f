import type { NextAction } from '../domain/payment-intent.entity';
import type { AttemptFailureCode } from '../domain/payment-attempt.entity';
import type { Mode } from '../domain/mode';

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
  /** Our reference for the order: the attempt id. Placing twice with one reference is one order. */
  readonly reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly paymentMethod: string;
  /** Where the channel sends its signed callbacks for this order. */
  readonly callbackUrl: string;
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

/** A callback whose signature checked out. Its amount is a claim: only the query decides. */
export interface ChannelCallback {
  readonly channelOrderId: string;
  readonly reference: string;
  readonly reportedStatus: 'processing' | 'paid' | 'failed';
}

/** What a test-mode call tells a channel to report for an order. */
export interface SimulatedOutcome {
  readonly status: 'processing' | 'paid' | 'failed';
  readonly failureCode?: AttemptFailureCode;
  /** The amount the callback reports; the order book keeps what was really paid. */
  readonly amount?: number;
  readonly currency?: string;
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
   * Checks a callback's signature over its raw body and parses it. Throws CoreError
   * `invalid_signature` (authentication) or `invalid_callback` (validation) and changes nothing.
   */
  verifyCallback(mode: Mode, headers: Readonly<Record<string, string | undefined>>, rawBody: string): ChannelCallback;
  /** Voids an order the payer may no longer pay (expiry, cancel). Best effort: failures are logged by the caller. */
  voidOrder(mode: Mode, channelOrderId: string): Promise<void>;
  /**
   * Test mode only, when `capabilities.canSimulate`: records the outcome and delivers the
   * channel's signed callback over HTTP, resolving once our callback route answered.
   */
  simulate?(mode: Mode, channelOrderId: string, outcome: SimulatedOutcome): Promise<void>;
}

/** Every channel adapter the composition root registered, in routing order. */
export interface PaymentChannelRegistry {
  /** The channel of this name, or undefined. */
  find(name: string): PaymentChannel | undefined;
  /** The channels usable in `mode`, in routing order. */
  forMode(mode: Mode): readonly PaymentChannel[];
}
export const PaymentChannelRegistry = Symbol('PaymentChannelRegistry');
