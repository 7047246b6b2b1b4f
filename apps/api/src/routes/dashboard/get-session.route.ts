import { defineRoute } from '../../http/define-route';
import { actorOf } from '../../plugins/dashboard/actor';
import { presentUser } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/session',
  access: 'dashboard',
  action: 'session.read',
  openapi: {
    operationId: 'getSession',
    summary: 'The signed-in user',
    tag: 'Session',
    success: { status: 200, schema: 'DashboardUser', description: 'The user of the session.' },
  },
  handler: () => (request) => presentUser(actorOf(request).user),
});
