import type { Plugin } from '@hapi/hapi';
import { registerRoutes, type Resolve, type Route } from '../http/define-route';

export interface OpenOptions {
  readonly resolve: Resolve;
  /** Every route of the app; this plugin registers those anyone may call. */
  readonly routes: readonly Route[];
}

/** Routes outside every access group (probes, the OpenAPI document): no credentials, nothing revealed. */
export const openPlugin: Plugin<OpenOptions> = {
  name: 'payments-open',
  register(server, options) {
    registerRoutes(server, options.routes, options.resolve, 'open', (route, handler) => ({ auth: false, plugins: { openapi: route.openapi }, handler }));
  },
};
