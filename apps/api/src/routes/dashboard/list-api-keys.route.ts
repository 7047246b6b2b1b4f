import { ListApiKeys } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { actorOf } from '../../plugins/dashboard/actor';
import { DASHBOARD_SCHEMAS, presentApiKey } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/api_keys',
  access: 'dashboard',
  action: 'api_keys.read',
  openapi: {
    operationId: 'listApiKeys',
    summary: 'List the API keys (prefixes only)',
    tag: 'API keys',
    success: { status: 200, schema: DASHBOARD_SCHEMAS.ApiKeyList, description: 'The keys.' },
  },
  uses: { listApiKeys: ListApiKeys },
  handler:
    ({ listApiKeys }) =>
    async (request) =>
      presentList(await listApiKeys.execute(actorOf(request).user), presentApiKey),
});
