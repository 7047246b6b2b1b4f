import type { Mode, PaymentChannel } from '@payments/core';

/** A signed delivery as the provider would send it to the callback route. */
export interface CallbackDelivery {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly rawBody: string;
}

/**
 * What the contract suite needs of an adapter under test: the adapter, one payment it can take,
 * and the provider's answers arranged per scenario (with nock, or any fake the adapter talks to).
 * Each `arrange…` sets up the answers of the calls the next step makes; the suite never looks at
 * the provider's shapes, only at what the port answers.
 */
export interface ChannelContractSubject {
  readonly channel: PaymentChannel;
  readonly mode: Mode;
  readonly merchantId: string;
  /** A payment the channel takes: amount in minor units. */
  readonly payment: { readonly amount: number; readonly currency: string; readonly paymentMethod: string };
  /** The provider takes the order `reference` (as often as asked: one order) and reports it pending. */
  arrangeOrderAccepted(reference: string): void;
  /** The provider's record of the order is paid in full. */
  arrangeOrderPaid(reference: string, channelOrderId: string): void;
  /** The provider reports a status the adapter does not know. */
  arrangeOrderStatusUnknown(reference: string, channelOrderId: string): void;
  /** Every call to the provider fails (5xx or a dropped connection), retries included. */
  arrangeProviderDown(): void;
  /**
   * A delivery of "this order is paid", signed as the provider does; with `callbacks:
   * 'confirmed-by-query'`, also the provider's record of the order made paid, so the adapter's
   * fetch confirms it.
   */
  signedPaidCallback(reference: string, channelOrderId: string): CallbackDelivery;
  /**
   * The same delivery with its body altered after signing; with `callbacks: 'confirmed-by-query'`,
   * a delivery claiming paid while the provider's record of the order is still pending (asked
   * before `signedPaidCallback`).
   */
  tamperedPaidCallback(reference: string, channelOrderId: string): CallbackDelivery;
  /** The provider takes the refund `reference` of the order and reports it succeeded. */
  arrangeRefundSucceeded(reference: string, orderReference: string, channelOrderId: string, amount: number): void;
  /** The provider holds a dispute over the whole order; answers its id as the channel names it. */
  arrangeDisputeOpened(orderReference: string, channelOrderId: string): string;
  /** The provider's statement holds exactly the order paid (`reference`) and nothing else. */
  arrangeStatementWithPayment(reference: string, channelOrderId: string): void;
  /** After each test: fails when an arranged answer was never asked for. */
  verifyArranged(): void;
}
