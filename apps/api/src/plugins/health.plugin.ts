import type { Plugin } from '@hapi/hapi';
import { CoreError } from '@payments/core';
import type { Readiness } from '../readiness';

export interface HealthPluginOptions {
  readonly readiness: Readiness;
}

/** Seconds a load balancer should wait before probing a process that is not ready. */
const NOT_READY_RETRY_AFTER_S = 5;

/**
 * Probes for load balancers and orchestrators, open like `/health` (they carry no credentials)
 * and revealing nothing but the names of the checks and their states.
 * - `/health/live`: the process runs and its event loop answers; no I/O, so a database outage
 *   never gets a healthy process restarted.
 * - `/health/ready`: it can serve now (database answers, schema current, Redis reachable when
 *   configured); otherwise 503 in the error envelope with Retry-After, so traffic goes elsewhere.
 */
export const healthPlugin: Plugin<HealthPluginOptions> = {
  name: 'payments-health',
  register(server, { readiness }) {
    const live = { status: 'ok' } as const;
    // `/health` predates the pair and stays for existing users: an alias of live.
    server.route({ method: 'GET', path: '/health', options: { auth: false }, handler: () => live });
    server.route({ method: 'GET', path: '/health/live', options: { auth: false }, handler: () => live });
    server.route({
      method: 'GET',
      path: '/health/ready',
      options: { auth: false },
      handler: async () => {
        const report = await readiness.check();
        if (report.ready) return { status: 'ready', checks: report.checks };
        const failing = Object.entries(report.checks)
          .filter(([, state]) => state !== 'ok' && state !== 'not_configured')
          .map(([name, state]) => `${name} ${state}`);
        throw new CoreError('api_error', 'unavailable', `Not ready: ${failing.join(', ')}.`, { retryAfterSeconds: NOT_READY_RETRY_AFTER_S });
      },
    });
  },
};
