import type { ApiResponse } from '../http/request-sender.js';
import { listPromise, type ListPromise } from '../pagination.js';
import type { RequestOptions, Settlement, SettlementListParams } from '../types.js';
import { Resource, segment } from './resource.js';

/** `/v1/settlements`. */
export class Settlements extends Resource {
  /** Asks for a settlement now: only for merchants whose settlement_schedule is manual. */
  create(options?: RequestOptions): Promise<ApiResponse<Settlement>> {
    return this.request({ method: 'POST', path: 'v1/settlements', ...(options ? { options } : {}) });
  }

  /** Newest first. Await it for one page, or `for await` over every settlement. */
  list(params: SettlementListParams = {}, options?: RequestOptions): ListPromise<Settlement> {
    return listPromise(params, (startingAfter) =>
      this.request({ method: 'GET', path: 'v1/settlements', query: { ...params, starting_after: startingAfter }, ...(options ? { options } : {}) }),
    );
  }

  retrieve(id: string, options?: RequestOptions): Promise<ApiResponse<Settlement>> {
    return this.request({ method: 'GET', path: `v1/settlements/${segment(id)}`, ...(options ? { options } : {}) });
  }
}
