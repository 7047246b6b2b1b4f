import type { Request, ResponseToolkit } from '@hapi/hapi';
import { isBoom } from '@hapi/boom';

/**
 * The policy of the pages this service serves to people (the hosted checkout, the merchant
 * console): no third-party anything. Scripts, styles, fonts and fetches go to this origin only, no inline
 * script or style (so no inline handlers), no framing, forms post nowhere else. `imageOrigin`: the
 * one other origin a page may draw an image from (a channel's QR image, on the checkout page that shows it).
 */
export function pageCsp(imageOrigin?: string): string {
  if (imageOrigin !== undefined && !PLAIN_HTTPS_ORIGIN.test(imageOrigin)) throw new Error('An image origin of a page must be a plain https origin.');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    imageOrigin === undefined ? "img-src 'self'" : `img-src 'self' ${imageOrigin}`,
    // The console's Thai font (Noto Sans Thai) is its own file, served beside its stylesheet.
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export const PAGE_CSP = pageCsp();

/** A host name of letters, digits, dots and hyphens, and an optional port: nothing a CSP would read as syntax. */
const PLAIN_HTTPS_ORIGIN = /^https:\/\/[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?$/;

/**
 * The origin of `url` when a page may draw an image from it: https, no user information, a plain
 * host name (URL parsing lets `;`, `'` and `,` into a host, which in a CSP header would be
 * syntax). Anything else: undefined, and the image is not drawn.
 */
export function drawableImageOrigin(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') return undefined;
  return PLAIN_HTTPS_ORIGIN.test(parsed.origin) ? parsed.origin : undefined;
}

/** Every answer of those pages, the error envelopes included. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': PAGE_CSP,
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** onPreResponse: uncached, no referrer, under the CSP (with the image origin the page named, `request.app.imageOrigin`), whatever the answer. */
export function pageSecurityHeaders(request: Request, h: ResponseToolkit): symbol {
  const response = request.response;
  if (!response) return h.continue;
  const imageOrigin = request.app.imageOrigin;
  const headers = imageOrigin === undefined ? PAGE_HEADERS : { ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp(imageOrigin) };
  for (const [name, value] of Object.entries(headers)) {
    if (isBoom(response)) response.output.headers[name] = value;
    else response.header(name, value);
  }
  return h.continue;
}
