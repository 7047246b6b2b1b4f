import { GetRefund } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { refundParams } from '../schemas';
import { presentRefund } from './presenter';

export default defineRoute({
  method: 'GET',
  path: '/v1/refunds/{id}',
  access: 'api-key',
  validate: { params: refundParams },
  openapi: {
    operationId: 'retrieveRefund',
    summary: 'Retrieve a refund',
    tag: 'Refunds',
    success: { status: 200, schema: 'Refund', description: 'The refund.' },
    errors: [404],
  },
  uses: { getRefund: GetRefund },
  handler:
    ({ getRefund }) =>
    async (request) =>
      presentRefund(await getRefund.execute({ scope: scopeOf(request), id: request.params.id })),
});
