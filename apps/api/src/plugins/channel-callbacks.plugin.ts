import type { Plugin } from '@hapi/hapi';
import { MODES, type HandleChannelCallback, type Mode } from '@payments/core';
import Joi from 'joi';

export interface ChannelCallbacksOptions {
  readonly handleChannelCallback: HandleChannelCallback;
}

/**
 * `POST /channels/{channel}/callback/{mode}`: where channels report. No key or cookie: the
 * channel's signature over the raw body is the authority, so the body is read unparsed.
 */
export const channelCallbacksPlugin: Plugin<ChannelCallbacksOptions> = {
  name: 'payments-channel-callbacks',
  dependencies: ['payments-errors'],
  register(server, options) {
    server.route({
      method: 'POST',
      path: '/channels/{channel}/callback/{mode}',
      options: {
        auth: false,
        payload: { parse: false, output: 'data', allow: ['application/json'] },
        validate: {
          params: Joi.object({ channel: Joi.string().pattern(/^[a-z0-9_-]{1,32}$/).required(), mode: Joi.string().valid(...MODES).required() }),
        },
        handler: async (request) => {
          const raw = Buffer.isBuffer(request.payload) ? request.payload.toString('utf8') : '';
          const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, typeof value === 'string' ? value : undefined]));
          await options.handleChannelCallback.execute({ channel: String(request.params.channel), mode: request.params.mode as Mode, headers, rawBody: raw });
          return { received: true };
        },
      },
    });
  },
};
