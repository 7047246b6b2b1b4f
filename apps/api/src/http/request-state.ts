import type { ApiCaller } from '@payments/core';

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    /** `req_…`: sent back as the Request-Id header and in every error body. */
    requestId: string;
    /** The API version answering this `/v1` request. */
    apiVersion?: string;
    /** The one other origin a page's CSP lets it draw an image from (the checkout page's QR image). */
    imageOrigin?: string;
  }
  interface AuthCredentials {
    caller?: ApiCaller;
  }
}

export {};
