import { ID_PATTERNS, RevokeApiKey } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { actorOf } from '../../plugins/dashboard/actor';
import { idParams, noBody } from '../schemas';
import { DASHBOARD_SCHEMAS, presentApiKey } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/api_keys/{id}/revoke',
  access: 'dashboard',
  action: 'api_keys.write',
  validate: { params: idParams(ID_PATTERNS.api_key, 'API key id'), payload: noBody },
  openapi: {
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    tag: 'API keys',
    success: { status: 200, schema: DASHBOARD_SCHEMAS.ApiKey, description: 'The revoked key.' },
    errors: [404],
  },
  uses: { revokeApiKey: RevokeApiKey },
  handler:
    ({ revokeApiKey }) =>
    async (request) =>
      presentApiKey(await revokeApiKey.execute(actorOf(request).user, request.params.id)),
});
