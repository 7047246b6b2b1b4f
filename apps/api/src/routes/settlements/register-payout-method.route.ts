import { RegisterPayoutDestination } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { required } from '../../http/typed-schema';
import { STEP_UP } from '../../openapi/build-dashboard-openapi';
import { actorOf } from '../../plugins/dashboard/actor';
import { codeOf, jsonBody, modeQuery, stepUpCode, text } from '../schemas';
import { PAYOUT_METHOD_SCHEMAS, presentPayoutMethod } from './presenters';

const payoutMethodCreateBody = jsonBody({
  type: required(text),
  currency: required(text),
  account_holder: required(text),
  bank_code: required(text),
  account_number: required(text),
  code: stepUpCode,
});

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/payout_methods',
  access: 'dashboard',
  action: 'payout_methods.write',
  validate: { query: modeQuery, payload: payoutMethodCreateBody },
  openapi: {
    operationId: 'registerPayoutMethod',
    summary: 'Register a payout destination',
    description: `The fields are checked first (400), then the code. A notice goes to the account's email; live destinations start unverified and hold live settlements for 24 hours. ${STEP_UP}`,
    tag: 'Payout methods',
    stepUp: true,
    success: { status: 201, schema: PAYOUT_METHOD_SCHEMAS.PayoutMethod, description: 'The destination.' },
  },
  uses: { registerPayoutDestination: RegisterPayoutDestination },
  handler:
    ({ registerPayoutDestination }) =>
    async (request, h) => {
      const body = request.payload;
      const destination = await registerPayoutDestination.execute(actorOf(request).user, {
        mode: request.query.mode,
        code: codeOf(body.code),
        type: body.type,
        currency: body.currency,
        accountHolder: body.account_holder,
        bankCode: body.bank_code,
        accountNumber: body.account_number,
      });
      return h.response(presentPayoutMethod(destination)).code(201);
    },
});
