import { UpdateMerchantSettings } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { orNull } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { jsonBody, text } from '../schemas';
import { DASHBOARD_SCHEMAS, presentSettings } from './presenters';

const settingsPatchBody = jsonBody({
  business_name: text,
  support_email: orNull(text),
  statement_descriptor: orNull(text),
  settlement_schedule: text,
});

export default defineRoute({
  method: 'PATCH',
  path: '/dashboard/v1/settings',
  access: 'dashboard',
  action: 'settings.write',
  validate: { payload: settingsPatchBody },
  openapi: {
    operationId: 'updateSettings',
    summary: 'Change business_name, support_email, statement_descriptor or settlement_schedule (null clears the optional ones)',
    tag: 'Settings',
    success: { status: 200, schema: DASHBOARD_SCHEMAS.MerchantSettings, description: 'The settings as changed.' },
  },
  uses: { updateMerchantSettings: UpdateMerchantSettings },
  handler:
    ({ updateMerchantSettings }) =>
    async (request) => {
      const body = request.payload;
      const merchant = await updateMerchantSettings.execute(actorOf(request).user, {
        businessName: body.business_name,
        supportEmail: body.support_email,
        statementDescriptor: body.statement_descriptor,
        settlementSchedule: body.settlement_schedule,
      });
      return presentSettings(merchant);
    },
});
