import type { Route } from '../../http/define-route';
import healthLive from './health-live.route';

/** `/health` predates the pair and stays for existing users: an alias of live. */
export default { ...healthLive, path: '/health' } satisfies Route;
