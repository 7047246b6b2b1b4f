import type { ApiRequest, ApiResponse, RequestSender } from '../http/request-sender.js';

/** Base of every resource: sends through the client's one RequestSender. */
export abstract class Resource {
  constructor(protected readonly sender: RequestSender) {}

  protected request<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    return this.sender.send<T>(request);
  }
}

/** An id as one path segment: ids never contain `/`, but a caller's typo must not reach another route. */
export function segment(id: string): string {
  if (typeof id !== 'string' || id === '') throw new TypeError('An id is required.');
  return encodeURIComponent(id);
}
