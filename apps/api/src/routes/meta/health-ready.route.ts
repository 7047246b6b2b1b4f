import { CoreError } from '@payments/core';
import { AppReadiness } from '../../modules/app-tokens';
import { defineRoute } from '../../http/define-route';

/** Seconds a load balancer should wait before probing a process that is not ready. */
const NOT_READY_RETRY_AFTER_S = 5;

/**
 * The process can serve now (database answers, schema current, Redis reachable when configured);
 * otherwise 503 in the error envelope with Retry-After, so traffic goes elsewhere. Reveals nothing
 * but the names of the checks and their states.
 */
export default defineRoute({
  method: 'GET',
  path: '/health/ready',
  access: 'open',
  uses: { readiness: AppReadiness },
  handler:
    ({ readiness }) =>
    async () => {
      const report = await readiness.check();
      if (report.ready) return { status: 'ready', checks: report.checks };
      const failing = Object.entries(report.checks)
        .filter(([, state]) => state !== 'ok' && state !== 'not_configured')
        .map(([name, state]) => `${name} ${state}`);
      throw new CoreError('api_error', 'unavailable', `Not ready: ${failing.join(', ')}.`, { retryAfterSeconds: NOT_READY_RETRY_AFTER_S });
    },
});
