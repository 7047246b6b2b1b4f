import { PlatformKeys } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { EVENT_SCHEMAS } from './presenters';

/** The published platform keys receivers check `v2` against; the first is made on first need. */
export default defineRoute({
  method: 'GET',
  path: '/v1/webhook_public_keys',
  access: 'api-key',
  permission: 'webhook_public_keys:read',
  openapi: {
    operationId: 'listWebhookPublicKeys',
    summary: 'The Ed25519 keys webhook v2 signatures are made with',
    description:
      'The platform’s published keys, one page. `v2_kid` in a delivery’s X-Webhook-Signature names the key that signed it; a new key is published here before ' +
      'it signs anything, so fetch the list again when `v2_kid` is one you do not know.',
    tag: 'Webhooks',
    success: { status: 200, schema: EVENT_SCHEMAS.WebhookPublicKeyList, description: 'The published keys.' },
  },
  uses: { platformKeys: PlatformKeys },
  handler:
    ({ platformKeys }) =>
    async () =>
      presentList(await platformKeys.published(), (key) => ({ id: key.id, object: 'webhook_public_key', algorithm: 'ed25519', public_key: key.publicKey })),
});
