import { SignIn } from '@payments/core';
import Joi from 'joi';
import { AppConfig } from '../../modules/app-tokens';
import { ClientIp } from '../../http/client-ip';
import { defineRoute } from '../../http/define-route';
import { objectSchema, required } from '../../http/typed-schema';
import { SESSION_COOKIE } from '../../plugins/dashboard/session-auth.scheme';
import { email, password } from '../schemas';
import { DASHBOARD_SCHEMAS, presentUser } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/session',
  access: 'dashboard',
  action: 'open',
  validate: { payload: objectSchema({ email, password, code: required(Joi.string().min(1).max(16)) }) },
  openapi: {
    operationId: 'signIn',
    summary: 'Sign in with email, password and one-time code',
    description:
      'Answers the user and sets the `dashboard_session` cookie (HttpOnly, SameSite=Strict, 30 minutes from sign-in). Every refusal is the same 401 `invalid_credentials`. ' +
      '10 failures within 15 minutes for one email, or from one client address, make further attempts 429 `rate_limited` with Retry-After, checked before the password is.',
    tag: 'Session',
    success: { status: 200, schema: DASHBOARD_SCHEMAS.DashboardUser, description: 'The signed-in user; the session is in the cookie.' },
  },
  uses: { signIn: SignIn, config: AppConfig },
  handler: ({ signIn, config }) => {
    // The client's address for the per-IP throttle (behind trusted proxies, from X-Forwarded-For).
    const clientIp = new ClientIp(config.trustedProxies);
    return async (request, h) => {
      const { user, token } = await signIn.execute({ ...request.payload, ip: clientIp.of(request) });
      return h.response(presentUser(user)).code(200).state(SESSION_COOKIE, token);
    };
  },
});
