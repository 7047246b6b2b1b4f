import { CoreError } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { checkoutViews } from '../../plugins/checkout/views';

/** The page's own script and stylesheet; no token involved. */
export default defineRoute({
  method: 'GET',
  path: '/checkout/assets/{file}',
  access: 'checkout-open',
  handler: () => {
    const { assets } = checkoutViews();
    return (request, h) => {
      const file = String(request.params.file);
      const asset = Object.hasOwn(assets, file) ? assets[file] : undefined;
      if (!asset) throw new CoreError('resource_not_found', 'not_found', 'No such file.');
      return h.response(asset.body).type(asset.type);
    };
  },
});
