import type { ApiResponse } from '../http/request-sender.js';
import { listPromise, type ListPromise } from '../pagination.js';
import type { Refund, RefundCreateParams, RefundListParams, RequestOptions } from '../types.js';
import { Resource, segment } from './resource.js';

/** `/v1/refunds`: money given back to the payer of a paid intent, in whole or in part. */
export class Refunds extends Resource {
  /**
   * Refunds a `succeeded` or `channel_settled` intent (the whole remainder when `amount` is left out).
   * The answer is `pending` until the channel reports, or `failed` at once when the channel declines.
   */
  create(params: RefundCreateParams, options?: RequestOptions): Promise<ApiResponse<Refund>> {
    return this.request({ method: 'POST', path: 'v1/refunds', body: params, ...(options ? { options } : {}) });
  }

  retrieve(id: string, options?: RequestOptions): Promise<ApiResponse<Refund>> {
    return this.request({ method: 'GET', path: `v1/refunds/${segment(id)}`, ...(options ? { options } : {}) });
  }

  /** Newest first. Await it for one page, or `for await` over every refund. */
  list(params: RefundListParams = {}, options?: RequestOptions): ListPromise<Refund> {
    return listPromise(params, (startingAfter) =>
      this.request({ method: 'GET', path: 'v1/refunds', query: { ...params, starting_after: startingAfter }, ...(options ? { options } : {}) }),
    );
  }
}
