import type { Plugin } from '@hapi/hapi';
import { registerRoutes, type Resolve, type Route } from '../http/define-route';

export interface ChannelCallbacksOptions {
  readonly resolve: Resolve;
  /** Every route of the app; this plugin registers those channels call. */
  readonly routes: readonly Route[];
}

/**
 * Where channels report. No key or cookie: the channel's signature over the raw body is the
 * authority, so the body is read unparsed.
 */
export const channelCallbacksPlugin: Plugin<ChannelCallbacksOptions> = {
  name: 'payments-channel-callbacks',
  dependencies: ['payments-errors'],
  register(server, options) {
    registerRoutes(server, options.routes, options.resolve, 'channel-signature', (_route, handler) => ({
      auth: false,
      payload: { parse: false, output: 'data', allow: ['application/json'] },
      handler,
    }));
  },
};
