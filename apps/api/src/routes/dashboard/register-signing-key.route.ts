import { RegisterSigningKey } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { required } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { jsonBody, text } from '../schemas';
import { DASHBOARD_SCHEMAS, presentSigningKey } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/signing_keys',
  access: 'dashboard',
  action: 'signing_keys.write',
  validate: { payload: jsonBody({ public_key: required(text), name: text }) },
  openapi: {
    operationId: 'registerSigningKey',
    summary: 'Register an Ed25519 public key',
    tag: 'Signing keys',
    success: { status: 201, schema: DASHBOARD_SCHEMAS.SigningKey, description: 'The key.' },
    errors: [409],
  },
  uses: { registerSigningKey: RegisterSigningKey },
  handler:
    ({ registerSigningKey }) =>
    async (request, h) => {
      const key = await registerSigningKey.execute(actorOf(request).user, { publicKey: request.payload.public_key, name: request.payload.name });
      return h.response(presentSigningKey(key)).code(201);
    },
});
