import { ListPayoutDestinations } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { actorOf } from '../../plugins/dashboard/actor';
import { modeQuery } from '../schemas';
import { PAYOUT_METHOD_SCHEMAS, presentPayoutMethod } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payout_methods',
  access: 'dashboard',
  action: 'payout_methods.read',
  validate: { query: modeQuery },
  openapi: {
    operationId: 'listPayoutMethods',
    summary: "List the mode's payout destinations (masked)",
    tag: 'Payout methods',
    success: { status: 200, schema: PAYOUT_METHOD_SCHEMAS.PayoutMethodList, description: 'The destinations.' },
  },
  uses: { listPayoutDestinations: ListPayoutDestinations },
  handler:
    ({ listPayoutDestinations }) =>
    async (request) =>
      presentList(await listPayoutDestinations.execute(actorOf(request).user, request.query.mode), presentPayoutMethod),
});
