import { API_KEY_ACCESS_LEVELS, API_KEY_RESOURCES, CreateApiKey, MODES, type ApiKeyResource } from '@payments/core';
import type Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { objectSchema, oneOf, required } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { jsonBody, text } from '../schemas';
import { API_KEY_RESOURCE_ROUTES, DASHBOARD_SCHEMAS, presentApiKey } from './presenters';

/** `{payment_intents: "write", balance: "read"}`: each resource a restricted key reaches, and how. */
const permissions = objectSchema(
  Object.fromEntries(
    API_KEY_RESOURCES.map((resource): [ApiKeyResource, Joi.StringSchema] => [
      resource,
      oneOf(API_KEY_ACCESS_LEVELS).description(`\`read\` or \`write\` (which includes read): ${API_KEY_RESOURCE_ROUTES[resource]}`),
    ]),
  ),
).description(
  'Makes the key restricted (`rk_…`): each resource it may reach, `read` or `write`; a resource left out is closed. Without it, a secret key (`sk_…`).',
);

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/api_keys',
  access: 'dashboard',
  action: 'api_keys.write',
  validate: { payload: jsonBody({ mode: required(oneOf(MODES)), name: text, permissions }) },
  openapi: {
    operationId: 'createApiKey',
    summary: 'Mint an API key; its secret is in this answer only',
    description:
      'A secret key (`sk_test_…`, `sk_live_…`) reaches every `/v1` route of its mode; with `permissions`, a restricted key (`rk_test_…`, `rk_live_…`) ' +
      'reaches only what they name (at least one resource). A live key cannot exceed the person minting it: a developer gets 403 `insufficient_permissions` ' +
      'for a live secret key, or a live key with `refunds`, `settlements` or `disputes` write (owner and admin work); test keys of any kind are open to every role that manages keys. ' +
      'A live key before review is 403 `live_not_enabled`.',
    tag: 'API keys',
    success: { status: 201, schema: DASHBOARD_SCHEMAS.ApiKey, description: 'The key with its secret.' },
    errors: [409],
  },
  uses: { createApiKey: CreateApiKey },
  handler:
    ({ createApiKey }) =>
    async (request, h) => {
      const { mode, name } = request.payload;
      const { key, secret } = await createApiKey.execute(actorOf(request).user, { mode, name, permissions: request.payload.permissions });
      return h.response({ ...presentApiKey(key), secret }).code(201);
    },
});
