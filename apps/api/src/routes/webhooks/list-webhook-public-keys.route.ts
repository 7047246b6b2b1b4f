import { PlatformKeys } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';

/** The published platform keys receivers check `v2` against; the first is made on first need. */
export default defineRoute({
  method: 'GET',
  path: '/v1/webhook_public_keys',
  access: 'api-key',
  openapi: {
    operationId: 'listWebhookPublicKeys',
    summary: 'The Ed25519 keys webhook v2 signatures are made with',
    tag: 'Webhooks',
    success: { status: 200, schema: 'WebhookPublicKeyList', description: 'The published keys.' },
  },
  uses: { platformKeys: PlatformKeys },
  handler:
    ({ platformKeys }) =>
    async () =>
      presentList(await platformKeys.published(), (key) => ({ id: key.id, object: 'webhook_public_key', algorithm: 'ed25519', public_key: key.publicKey })),
});
