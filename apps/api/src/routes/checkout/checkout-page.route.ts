import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import { Clock, GetCheckoutPage, isCoreError } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { header } from '../../http/headers';
import { drawableImageOrigin } from '../../http/page-security';
import { pickLanguage } from '../../plugins/checkout/language';
import { checkoutPageView } from '../../plugins/checkout/page-view';
import { checkoutViews, type CheckoutViews } from '../../plugins/checkout/views';
import { checkoutTokenParams } from '../schemas';

/** An unknown or expired session is a page for the payer (404, 410), not the API's JSON envelope. */
function renderUnavailable(views: CheckoutViews, request: Pick<Request, 'headers'>, h: ResponseToolkit, error: unknown): ResponseObject {
  if (!isCoreError(error) || (error.category !== 'gone' && error.category !== 'not_found')) throw error;
  const lang = pickLanguage(header(request, 'accept-language'));
  const gone = error.category === 'gone';
  return h
    .response(views.unavailable(lang, gone ? 'expired' : 'not_found'))
    .code(gone ? 410 : 404)
    .type('text/html; charset=utf-8')
    .header('Content-Language', lang);
}

/** The hosted checkout page the payer's link opens. */
export default defineRoute({
  method: 'GET',
  path: '/c/{token}',
  access: 'checkout-token',
  validate: { params: checkoutTokenParams },
  uses: { getCheckoutPage: GetCheckoutPage, clock: Clock },
  handler: ({ getCheckoutPage, clock }) => {
    const views = checkoutViews();
    return async (request, h) => {
      const lang = pickLanguage(header(request, 'accept-language'));
      try {
        const page = await getCheckoutPage.execute({ token: request.params.token });
        const view = await checkoutPageView(page, lang, clock.now());
        // The QR image is the one thing the page takes from elsewhere: its origin, and only it, joins the CSP.
        request.app.imageOrigin = drawableImageOrigin(view.qrImageUrl);
        const html = views.page(view);
        return h.response(html).type('text/html; charset=utf-8').header('Content-Language', lang).header('Vary', 'Accept-Language');
      } catch (error) {
        return renderUnavailable(views, request, h, error);
      }
    };
  },
});
