import type { Capability } from './capability';
import health from '../routes/meta/health.route';
import healthLive from '../routes/meta/health-live.route';
import healthReady from '../routes/meta/health-ready.route';
import openApiDocument from '../routes/meta/openapi-document.route';

/** Probes and the OpenAPI document: routes only, nothing to bind. */
export const metaModule: Capability = {
  routes: [health, healthLive, healthReady, openApiDocument],
};
