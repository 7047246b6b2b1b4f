import type { Plugin } from '@hapi/hapi';
import { isBoom } from '@hapi/boom';
import { randomString, type RandomSource } from '@payments/core';
import { toCoreError } from '../http/boom-to-core-error';
import { errorBody, httpStatusOf } from '../http/error-envelope';
import '../http/request-state';
import type { Logger } from '../logger';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface ErrorsPluginOptions {
  readonly logger: Logger;
  readonly random: RandomSource;
}

/**
 * Gives every request an id and renders every error, whoever raised it (core, joi, Hapi itself),
 * as the `{error: {code, message, param?, request_id}}` envelope. The line per request is the
 * request-log plugin's (hapi-pino), which reads the id given here.
 */
export const errorsPlugin: Plugin<ErrorsPluginOptions> = {
  name: 'payments-errors',
  register(server, { logger, random }) {
    server.ext('onRequest', (request, h) => {
      request.app.requestId = `req_${randomString(random, BASE62, 22)}`;
      return h.continue;
    });

    server.ext('onPreResponse', (request, h) => {
      const response = request.response;
      const requestId = request.app.requestId;
      if (!isBoom(response)) {
        response.header('Request-Id', requestId);
        return h.continue;
      }
      const error = toCoreError(response);
      const status = httpStatusOf(error);
      // A 503 is an outage of a dependency (already visible in readiness), not a bug: warn, not error.
      if (status >= 500)
        logger[status === 503 ? 'warn' : 'error']({ err: error.cause ?? response, request_id: requestId, route: request.route.path }, 'request failed');
      const answer = h.response(errorBody(error, requestId)).code(status).header('Request-Id', requestId);
      if (error.retryAfterSeconds !== undefined) answer.header('Retry-After', String(error.retryAfterSeconds));
      return answer;
    });
  },
};
