import { defineRoute } from '../../http/define-route';

const live = { status: 'ok' } as const;

/**
 * The process runs and its event loop answers. No I/O, so a database outage never gets a healthy
 * process restarted. Open, like every probe: orchestrators carry no credentials.
 */
export default defineRoute({
  method: 'GET',
  path: '/health/live',
  access: 'open',
  handler: () => () => live,
});
