import { CreateApiKey, MODES } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { oneOf, required } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { jsonBody, text } from '../schemas';
import { DASHBOARD_SCHEMAS, presentApiKey } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/api_keys',
  access: 'dashboard',
  action: 'api_keys.write',
  validate: { payload: jsonBody({ mode: required(oneOf(MODES)), name: text }) },
  openapi: {
    operationId: 'createApiKey',
    summary: 'Mint an API key; its secret is in this answer only',
    tag: 'API keys',
    success: { status: 201, schema: DASHBOARD_SCHEMAS.ApiKey, description: 'The key with its secret.' },
    errors: [409],
  },
  uses: { createApiKey: CreateApiKey },
  handler:
    ({ createApiKey }) =>
    async (request, h) => {
      const { key, secret } = await createApiKey.execute(actorOf(request).user, { mode: request.payload.mode, name: request.payload.name });
      return h.response({ ...presentApiKey(key), secret }).code(201);
    },
});
