import { UpdateTeamUser, USER_ROLES, USER_STATUSES } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { STEP_UP } from '../../openapi/build-dashboard-openapi';
import { actorOf } from '../../plugins/dashboard/actor';
import { codeOf, stepUpCode, userIdParams } from '../schemas';
import { DASHBOARD_SCHEMAS, presentUser } from './presenters';

export default defineRoute({
  method: 'PATCH',
  path: '/dashboard/v1/users/{id}',
  access: 'dashboard',
  action: 'users.write',
  validate: {
    params: userIdParams,
    payload: objectSchema({ role: oneOf(USER_ROLES), status: oneOf(USER_STATUSES), code: stepUpCode }),
  },
  openapi: {
    operationId: 'updateUser',
    summary: "Change a member's role or status",
    description:
      "Nobody changes their own row; only an owner grants or removes the owner role or changes an owner's row (403 `forbidden`). Disabling ends the member's sessions at once. " +
      `Granting admin or owner (to a member who had a lesser role) also takes \`code\` and writes a notice for the account's email; other changes need no code. ${STEP_UP} ` +
      'Concurrent changes of one member run one after the other, so none undoes another.',
    tag: 'Team',
    stepUp: true,
    success: { status: 200, schema: DASHBOARD_SCHEMAS.DashboardUser, description: 'The member as changed.' },
    errors: [404],
  },
  uses: { updateTeamUser: UpdateTeamUser },
  handler:
    ({ updateTeamUser }) =>
    async (request) => {
      const body = request.payload;
      const change = {
        ...(body.role === undefined ? {} : { role: body.role }),
        ...(body.status === undefined ? {} : { status: body.status }),
        code: codeOf(body.code),
      };
      return presentUser(await updateTeamUser.execute(actorOf(request).user, request.params.id, change));
    },
});
