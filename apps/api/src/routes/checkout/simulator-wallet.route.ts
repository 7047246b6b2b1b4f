import { defineRoute } from '../../http/define-route';
import { header } from '../../http/headers';
import { pickLanguage } from '../../plugins/checkout/language';
import { checkoutViews } from '../../plugins/checkout/views';

/** The simulator's stand-in wallet (test mode's redirect credential): says where to go on. */
export default defineRoute({
  method: 'GET',
  path: '/checkout/simulator-wallet/{order}',
  access: 'checkout-open',
  handler: () => {
    const views = checkoutViews();
    return (request, h) => {
      const lang = pickLanguage(header(request, 'accept-language'));
      return h.response(views.wallet(lang)).type('text/html; charset=utf-8').header('Content-Language', lang);
    };
  },
});
