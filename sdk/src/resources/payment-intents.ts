import type { ApiResponse, RequestSender } from '../http/request-sender.js';
import { listPromise, type ListPromise } from '../pagination.js';
import type {
  List,
  PaymentAttempt,
  PaymentAttemptCreateParams,
  PaymentIntent,
  PaymentIntentCreateParams,
  PaymentIntentListParams,
  RequestOptions,
} from '../types.js';
import { Resource, segment } from './resource.js';

/** `/v1/payment_intents/{id}/attempts`: tries at a channel. */
export class PaymentAttempts extends Resource {
  /** Places an attempt; while one is pending the API answers with it again instead of a new order. */
  create(paymentIntentId: string, params: PaymentAttemptCreateParams, options?: RequestOptions): Promise<ApiResponse<PaymentAttempt>> {
    return this.request({ method: 'POST', path: `v1/payment_intents/${segment(paymentIntentId)}/attempts`, body: params, ...(options ? { options } : {}) });
  }

  /** Every attempt of an intent, oldest first (one page: the list is short). */
  list(paymentIntentId: string, options?: RequestOptions): Promise<ApiResponse<List<PaymentAttempt>>> {
    return this.request({ method: 'GET', path: `v1/payment_intents/${segment(paymentIntentId)}/attempts`, ...(options ? { options } : {}) });
  }
}

/** `/v1/payment_intents`. */
export class PaymentIntents extends Resource {
  readonly attempts: PaymentAttempts;

  constructor(sender: RequestSender) {
    super(sender);
    this.attempts = new PaymentAttempts(sender);
  }

  /** Creates an intent; the answer (and only it) carries `checkout_url`. */
  create(params: PaymentIntentCreateParams, options?: RequestOptions): Promise<ApiResponse<PaymentIntent>> {
    return this.request({ method: 'POST', path: 'v1/payment_intents', body: params, ...(options ? { options } : {}) });
  }

  retrieve(id: string, options?: RequestOptions): Promise<ApiResponse<PaymentIntent>> {
    return this.request({ method: 'GET', path: `v1/payment_intents/${segment(id)}`, ...(options ? { options } : {}) });
  }

  /** Newest first. Await it for one page, or `for await` over every intent. */
  list(params: PaymentIntentListParams = {}, options?: RequestOptions): ListPromise<PaymentIntent> {
    return listPromise(params, (startingAfter) =>
      this.request({
        method: 'GET',
        path: 'v1/payment_intents',
        query: { ...params, starting_after: startingAfter },
        ...(options ? { options } : {}),
      }),
    );
  }

  /** Cancels an intent that is `created` or `requires_payment`. */
  cancel(id: string, options?: RequestOptions): Promise<ApiResponse<PaymentIntent>> {
    return this.request({ method: 'POST', path: `v1/payment_intents/${segment(id)}/cancel`, ...(options ? { options } : {}) });
  }
}
