import { ResetTeamUserMfa } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { objectSchema, orNull } from '../../http/typed-schema';
import { STEP_UP } from '../../openapi/build-dashboard-openapi';
import { actorOf } from '../../plugins/dashboard/actor';
import { codeOf, stepUpCode, userIdParams } from '../schemas';
import { DASHBOARD_SCHEMAS, presentUser } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/users/{id}/mfa',
  access: 'dashboard',
  action: 'users.reset_mfa',
  validate: { params: userIdParams, payload: orNull(objectSchema({ code: stepUpCode })) },
  openapi: {
    operationId: 'resetUserMfa',
    summary: "Reset a member's second factor",
    description: `The old codes stop at once and the member's sessions end; they claim a new one with email and password. Notices go to the member and the account's email. ${STEP_UP}`,
    tag: 'Team',
    stepUp: true,
    success: { status: 200, schema: DASHBOARD_SCHEMAS.DashboardUser, description: 'The member, without a second factor.' },
    errors: [404],
  },
  uses: { resetTeamUserMfa: ResetTeamUserMfa },
  handler:
    ({ resetTeamUserMfa }) =>
    async (request) =>
      presentUser(await resetTeamUserMfa.execute(actorOf(request).user, request.params.id, codeOf(request.payload?.code))),
});
