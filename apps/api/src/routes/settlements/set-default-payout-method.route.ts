import { ID_PATTERNS, SetDefaultPayoutDestination } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { objectSchema, orNull } from '../../http/typed-schema';
import { STEP_UP } from '../../openapi/build-dashboard-openapi';
import { actorOf } from '../../plugins/dashboard/actor';
import { codeOf, idParams, modeQuery, stepUpCode } from '../schemas';
import { PAYOUT_METHOD_SCHEMAS, presentPayoutMethod } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/payout_methods/{id}/default',
  access: 'dashboard',
  action: 'payout_methods.write',
  validate: {
    query: modeQuery,
    params: idParams(ID_PATTERNS.payout_destination, 'payout method id'),
    payload: orNull(objectSchema({ code: stepUpCode })).prefs({ convert: false }),
  },
  openapi: {
    operationId: 'setDefaultPayoutMethod',
    summary: "Make a verified destination the mode's default",
    description: `A notice goes to the account's email; in live mode the 24-hour hold starts again. ${STEP_UP}`,
    tag: 'Payout methods',
    stepUp: true,
    success: { status: 200, schema: PAYOUT_METHOD_SCHEMAS.PayoutMethod, description: 'The new default.' },
    errors: [404, 409],
  },
  uses: { setDefaultPayoutDestination: SetDefaultPayoutDestination },
  handler:
    ({ setDefaultPayoutDestination }) =>
    async (request) => {
      const destination = await setDefaultPayoutDestination.execute(actorOf(request).user, {
        mode: request.query.mode,
        id: request.params.id,
        code: codeOf(request.payload?.code),
      });
      return presentPayoutMethod(destination);
    },
});
