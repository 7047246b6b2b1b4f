import { isBoom } from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import { header } from '../../http/headers';
import { API_VERSION_PATTERN, CoreError, CURRENT_API_VERSION, isRenderedVersion, type ResolveApiVersion } from '@payments/core';

/**
 * Chooses the version answering each `/v1` request (header, else the account's pin; the first
 * request pins) and names it in the `Api-Version` header of every `/v1` response, errors included.
 */
export function registerApiVersion(server: Server, resolveApiVersion: ResolveApiVersion): void {
  server.ext('onPostAuth', async (request, h) => {
    const caller = request.auth.credentials?.caller;
    if (!caller) return h.continue;
    const requested = header(request, 'api-version');
    if (requested !== undefined && !API_VERSION_PATTERN.test(requested)) {
      throw new CoreError('invalid_api_version', 'validation', 'Api-Version must be a date such as 2026-09-01.', { param: 'Api-Version' });
    }
    request.app.apiVersion = await resolveApiVersion.execute({ merchant: caller.merchant, requested });
    return h.continue;
  });

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
