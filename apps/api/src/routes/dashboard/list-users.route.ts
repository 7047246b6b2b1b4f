import { ListTeamUsers } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { actorOf } from '../../plugins/dashboard/actor';
import { DASHBOARD_SCHEMAS, presentUser } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/users',
  access: 'dashboard',
  action: 'users.read',
  openapi: {
    operationId: 'listUsers',
    summary: 'List the team, oldest first',
    tag: 'Team',
    success: { status: 200, schema: DASHBOARD_SCHEMAS.DashboardUserList, description: 'Every member.' },
  },
  uses: { listTeamUsers: ListTeamUsers },
  handler:
    ({ listTeamUsers }) =>
    async (request) =>
      presentList(await listTeamUsers.execute(actorOf(request).user), presentUser),
});
