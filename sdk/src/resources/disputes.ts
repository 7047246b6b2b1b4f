import type { ApiResponse } from '../http/request-sender.js';
import { listPromise, type ListPromise } from '../pagination.js';
import type { Dispute, DisputeEvidenceParams, DisputeListParams, RequestOptions } from '../types.js';
import { Resource, segment } from './resource.js';

/** `/v1/disputes`. */
export class Disputes extends Resource {
  /** Newest first. Await it for one page, or `for await` over every dispute. */
  list(params: DisputeListParams = {}, options?: RequestOptions): ListPromise<Dispute> {
    return listPromise(params, (startingAfter) =>
      this.request({ method: 'GET', path: 'v1/disputes', query: { ...params, starting_after: startingAfter }, ...(options ? { options } : {}) }),
    );
  }

  retrieve(id: string, options?: RequestOptions): Promise<ApiResponse<Dispute>> {
    return this.request({ method: 'GET', path: `v1/disputes/${segment(id)}`, ...(options ? { options } : {}) });
  }

  /** Merges `evidence` key by key into what the dispute holds; a ruled dispute accepts none. */
  submitEvidence(id: string, params: DisputeEvidenceParams, options?: RequestOptions): Promise<ApiResponse<Dispute>> {
    return this.request({ method: 'POST', path: `v1/disputes/${segment(id)}/evidence`, body: params, ...(options ? { options } : {}) });
  }
}
