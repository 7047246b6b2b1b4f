import type { ServerRoute } from '@hapi/hapi';

/** The resource slice: settings, API keys, signing keys, payout methods, webhook endpoints. */
export interface ResourceRoutesDeps {}

export function resourceRoutes(_deps: ResourceRoutesDeps): ServerRoute[] {
  return [];
}
