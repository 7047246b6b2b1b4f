import { HandleChannelCallback, MODES } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { objectSchema, oneOf, required } from '../../http/typed-schema';

const callbackParams = objectSchema({ channel: required(Joi.string().pattern(/^[a-z0-9_-]{1,32}$/)), mode: required(oneOf(MODES)) });

/** Where channels report. The channel's signature over the raw body is the authority, so the body is read unparsed. */
export default defineRoute({
  method: 'POST',
  path: '/channels/{channel}/callback/{mode}',
  access: 'channel-signature',
  validate: { params: callbackParams },
  uses: { handleChannelCallback: HandleChannelCallback },
  handler:
    ({ handleChannelCallback }) =>
    async (request) => {
      const raw = Buffer.isBuffer(request.payload) ? request.payload.toString('utf8') : '';
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, typeof value === 'string' ? value : undefined]));
      await handleChannelCallback.execute({ channel: request.params.channel, mode: request.params.mode, headers, rawBody: raw });
      return { received: true };
    },
});
