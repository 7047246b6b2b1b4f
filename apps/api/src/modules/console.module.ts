import type { Capability } from './capability';
import consolePage from '../routes/console/console-page.route';
import consoleAsset from '../routes/console/console-asset.route';

/** The merchant console: its page and files; everything it shows comes through the dashboard routes. */
export const consoleModule: Capability = {
  routes: [consolePage, consoleAsset],
};
