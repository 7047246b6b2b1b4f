import type { Plugin } from '@hapi/hapi';
import { registerRoutes, type Resolve, type Route } from '../http/define-route';
import { pageSecurityHeaders } from '../http/page-security';

export interface ConsoleOptions {
  readonly resolve: Resolve;
  /** Every route of the app; this plugin registers the console's page and files. */
  readonly routes: readonly Route[];
}

/**
 * The merchant console under `/dashboard`: one page and its script and stylesheet, under the same
 * strict policy as the checkout. They carry no data: the script reads and writes through
 * `/dashboard/v1`, whose routes check the session cookie (`Path=/dashboard`, SameSite=Strict).
 */
export const consolePlugin: Plugin<ConsoleOptions> = {
  name: 'payments-console',
  dependencies: ['payments-errors'],
  register(server, options) {
    registerRoutes(server, options.routes, options.resolve, 'console-page', (_route, handler) => ({
      auth: false,
      // The page needs no cookie: the session is read by the API routes the script calls.
      state: { parse: false, failAction: 'ignore' },
      ext: { onPreResponse: { method: pageSecurityHeaders } },
      handler,
    }));
  },
};
