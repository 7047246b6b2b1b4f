import { ListSigningKeys } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { actorOf } from '../../plugins/dashboard/actor';
import { DASHBOARD_SCHEMAS, presentSigningKey } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/signing_keys',
  access: 'dashboard',
  action: 'signing_keys.read',
  openapi: {
    operationId: 'listSigningKeys',
    summary: 'List the registered Ed25519 signing keys',
    tag: 'Signing keys',
    success: { status: 200, schema: DASHBOARD_SCHEMAS.SigningKeyList, description: 'The keys.' },
  },
  uses: { listSigningKeys: ListSigningKeys },
  handler:
    ({ listSigningKeys }) =>
    async (request) =>
      presentList(await listSigningKeys.execute(actorOf(request).user), presentSigningKey),
});
