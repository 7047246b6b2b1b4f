import { ROLE_PERMISSIONS } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { actorOf } from '../../plugins/dashboard/actor';
import { DASHBOARD_SCHEMAS, presentUser } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/session',
  access: 'dashboard',
  action: 'session.read',
  openapi: {
    operationId: 'getSession',
    summary: 'The signed-in user and what their role may do',
    description:
      '`permissions` lists the actions of the role table this user may perform (a route refuses the others with 403), so a client can offer only what will be accepted.',
    tag: 'Session',
    success: { status: 200, schema: DASHBOARD_SCHEMAS.DashboardSession, description: 'The user of the session and their permissions.' },
  },
  handler: () => (request) => {
    const { user } = actorOf(request);
    return { ...presentUser(user), permissions: ROLE_PERMISSIONS[user.role] };
  },
});
