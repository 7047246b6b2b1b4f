import { SignOut } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { actorOf } from '../../plugins/dashboard/actor';
import { SESSION_COOKIE } from '../../plugins/dashboard/session-auth.scheme';

export default defineRoute({
  method: 'DELETE',
  path: '/dashboard/v1/session',
  access: 'dashboard',
  // Every role may end its own session; session.* is in every role's part of the table.
  action: 'session.read',
  openapi: {
    operationId: 'signOut',
    summary: 'Sign out: the session ends and the cookie is cleared',
    tag: 'Session',
    success: { status: 204, description: 'Signed out.' },
  },
  uses: { signOut: SignOut },
  handler:
    ({ signOut }) =>
    async (request, h) => {
      const actor = actorOf(request);
      await signOut.execute({ merchantId: actor.merchant.id, userId: actor.user.id, sessionId: actor.sessionId });
      return h.response().code(204).unstate(SESSION_COOKIE);
    },
});
