import { GetRefund } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { refundParams } from '../schemas';
import { REFUND_SCHEMAS, presentRefund } from './presenter';

export default defineRoute({
  method: 'GET',
  path: '/v1/refunds/{id}',
  access: 'api-key',
  permission: 'refunds:read',
  validate: { params: refundParams },
  openapi: {
    operationId: 'retrieveRefund',
    summary: 'Retrieve a refund',
    description: 'A refund as it stands now. Another merchant’s refund, or one of the other mode, is 404 `resource_not_found` like an unknown one.',
    tag: 'Refunds',
    success: { status: 200, schema: REFUND_SCHEMAS.Refund, description: 'The refund.' },
    errors: { 404: ['resource_not_found'] },
  },
  uses: { getRefund: GetRefund },
  handler:
    ({ getRefund }) =>
    async (request) =>
      presentRefund(await getRefund.execute({ scope: scopeOf(request), id: request.params.id })),
});
