import type { ContainerModule } from 'inversify';
import type { Config } from '../config';
import type { Route } from '../http/define-route';

/**
 * One capability of the service as the app sees it: what it binds in the container and the routes
 * that reach it. Adding an endpoint to a capability touches its module here and its route file.
 */
export interface Capability {
  readonly bindings?: (config: Config) => ContainerModule;
  /** Whoever calls them: the plugin of each kind of access registers its own. */
  readonly routes: readonly Route[];
}
