import type { ApiResponse, RequestSender } from '../http/request-sender.js';
import type { PaymentIntent, PaymentIntentAdvanceParams, PaymentIntentSimulateParams, Refund, RefundSimulateParams, RequestOptions } from '../types.js';
import { Resource, segment } from './resource.js';

/** `/v1/test/payment_intents`: test mode only (a live key is refused). */
export class TestPaymentIntents extends Resource {
  /** Tells the channel what to report and waits for its callback; answers the intent as it then stands. */
  simulate(id: string, params: PaymentIntentSimulateParams, options?: RequestOptions): Promise<ApiResponse<PaymentIntent>> {
    return this.request({ method: 'POST', path: `v1/test/payment_intents/${segment(id)}/simulate`, body: params, ...(options ? { options } : {}) });
  }

  /** Moves a running timer (`expiry`, or `release` once channel_settled) to now; the worker acts on its next tick. */
  advance(id: string, params: PaymentIntentAdvanceParams, options?: RequestOptions): Promise<ApiResponse<PaymentIntent>> {
    return this.request({ method: 'POST', path: `v1/test/payment_intents/${segment(id)}/advance`, body: params, ...(options ? { options } : {}) });
  }
}

/** `/v1/test/refunds`: test mode only (a live key is refused). */
export class TestRefunds extends Resource {
  /** Tells the channel what to report for a pending refund and waits for its notice; answers the refund as it then stands (a final one is 409). */
  simulate(id: string, params: RefundSimulateParams, options?: RequestOptions): Promise<ApiResponse<Refund>> {
    return this.request({ method: 'POST', path: `v1/test/refunds/${segment(id)}/simulate`, body: params, ...(options ? { options } : {}) });
  }
}

/** `payments.testHelpers`: script test-mode flows. */
export class TestHelpers {
  readonly paymentIntents: TestPaymentIntents;
  readonly refunds: TestRefunds;
  constructor(sender: RequestSender) {
    this.paymentIntents = new TestPaymentIntents(sender);
    this.refunds = new TestRefunds(sender);
  }
}
