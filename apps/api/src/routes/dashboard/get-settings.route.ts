import { GetMerchantSettings } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { actorOf } from '../../plugins/dashboard/actor';
import { DASHBOARD_SCHEMAS, presentSettings } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/settings',
  access: 'dashboard',
  action: 'settings.read',
  openapi: {
    operationId: 'getSettings',
    summary: 'The account settings (the four editable fields always present, null when unset)',
    tag: 'Settings',
    success: { status: 200, schema: DASHBOARD_SCHEMAS.MerchantSettings, description: 'The settings.' },
  },
  uses: { getMerchantSettings: GetMerchantSettings },
  handler:
    ({ getMerchantSettings }) =>
    async (request) =>
      presentSettings(await getMerchantSettings.execute(actorOf(request).user)),
});
