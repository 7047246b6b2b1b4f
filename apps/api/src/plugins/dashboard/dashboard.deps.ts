import type { AppContainer } from '../../container';
import type { AuthRoutesDeps } from './auth.routes';
import type { ResourceRoutesDeps } from './resource.routes';

/** The composition root's hand-over to the dashboard routes: use cases out of the container. */
export function authRoutesDeps(_app: AppContainer): AuthRoutesDeps {
  return {};
}

export function resourceRoutesDeps(_app: AppContainer): ResourceRoutesDeps {
  return {};
}
