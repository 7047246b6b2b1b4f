import type { Request, ResponseToolkit } from '@hapi/hapi';
import { isBoom } from '@hapi/boom';

/**
 * The policy of the pages this service serves to people (the hosted checkout, the merchant
 * console): no third-party anything. Scripts, styles, fonts and fetches go to this origin only, no inline
 * script or style (so no inline handlers), no framing, forms post nowhere else.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  // The console's Thai font (Noto Sans Thai) is its own file, served beside its stylesheet.
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Every answer of those pages, the error envelopes included. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': PAGE_CSP,
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** onPreResponse: uncached, no referrer, under the CSP, whatever the answer. */
export function pageSecurityHeaders(request: Request, h: ResponseToolkit): symbol {
  const response = request.response;
  if (!response) return h.continue;
  for (const [name, value] of Object.entries(PAGE_HEADERS)) {
    if (isBoom(response)) response.output.headers[name] = value;
    else response.header(name, value);
  }
  return h.continue;
}
