import { isBoom } from '@hapi/boom';
import type { Request, Server } from '@hapi/hapi';
import { header } from '../../http/headers';
import { API_VERSION_PATTERN, CoreError, CURRENT_API_VERSION, isRenderedVersion, type ResolveApiVersion } from '@payments/core';
import { callerOf } from './caller';

/**
 * Chooses the version answering an authenticated `/v1` request (header, else the account's pin;
 * the first request pins) into `request.app.apiVersion`. Run by the routes' one step after
 * authentication (merchant-v1.plugin.ts).
 */
export function apiVersionChooser(resolveApiVersion: ResolveApiVersion): (request: Request) => Promise<void> {
  return async (request) => {
    const requested = header(request, 'api-version');
    if (requested !== undefined && !API_VERSION_PATTERN.test(requested)) {
      throw new CoreError('invalid_api_version', 'validation', 'Api-Version must be a date such as 2026-09-01.', { param: 'Api-Version' });
    }
    request.app.apiVersion = await resolveApiVersion.execute({ merchant: callerOf(request).merchant, requested });
  };
}

/**
 * Names the version in the `Api-Version` header of every `/v1` response, errors included (an
 * unknown `/v1` path too, which no route's step reaches: hence a server extension).
 */
export function registerApiVersionHeader(server: Server): void {
  server.ext(
    'onPreResponse',
    (request, h) => {
      if (!request.path.startsWith('/v1/')) return h.continue;
      const requested = header(request, 'api-version');
      const version = request.app.apiVersion ?? (requested !== undefined && isRenderedVersion(requested) ? requested : CURRENT_API_VERSION);
      const response = request.response;
      if (isBoom(response)) response.output.headers['Api-Version'] = version;
      else response?.header('Api-Version', version);
      return h.continue;
    },
    { after: ['payments-errors'] },
  );
}
