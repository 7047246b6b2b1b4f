import type { ServerRoute } from '@hapi/hapi';
import {
  ID_PATTERNS,
  USER_NAME_MAX_LENGTH,
  USER_ROLES,
  USER_STATUSES,
  type AddTeamUser,
  type ClaimMfa,
  type ListTeamUsers,
  type ResetTeamUserMfa,
  type SignIn,
  type SignOut,
  type UpdateTeamUser,
  type UserRole,
  type UserStatus,
} from '@payments/core';
import Joi from 'joi';
import type { ClientIp } from '../../http/client-ip';
import { presentList } from '../../http/presenting';
import { actorOf, codeOf, dashboardRoute } from './dashboard-route';
import { stepUpCode } from './resource.schemas';
import { SESSION_COOKIE } from './session-auth.scheme';
import { presentUser } from './user.presenter';

/** The auth slice: session, MFA claim, users. */
export interface AuthRoutesDeps {
  readonly signIn: SignIn;
  readonly signOut: SignOut;
  readonly claimMfa: ClaimMfa;
  readonly listTeamUsers: ListTeamUsers;
  readonly addTeamUser: AddTeamUser;
  readonly updateTeamUser: UpdateTeamUser;
  readonly resetTeamUserMfa: ResetTeamUserMfa;
  /** The client's address for the per-IP sign-in throttle (behind trusted proxies, from X-Forwarded-For). */
  readonly clientIp: ClientIp;
}

/*
 * Credential fields are checked for type and length only: a joi message that quoted the value
 * (a pattern, say) would echo a password or code into the error. Anything beyond the shape is
 * the use case's single 401.
 */
const email = Joi.string().min(1).max(254).required();
const password = Joi.string().min(1).max(1024).required();
const code = Joi.string().min(1).max(16).required();

const userIdParams = Joi.object({ id: Joi.string().max(64).pattern(ID_PATTERNS.user, 'a user id (usr_…)').required() });


export function authRoutes(deps: AuthRoutesDeps): ServerRoute[] {
  return [
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/session',
      action: 'open',
      validate: { payload: Joi.object({ email, password, code }) },
      handler: async (request, h) => {
        const body = request.payload as { email: string; password: string; code: string };
        const { user, token } = await deps.signIn.execute({ ...body, ip: deps.clientIp.of(request) });
        return h.response(presentUser(user)).code(200).state(SESSION_COOKIE, token);
      },
    }),
    dashboardRoute({
      method: 'GET',
      path: '/dashboard/v1/session',
      action: 'session.read',
      handler: (request) => presentUser(actorOf(request).user),
    }),
    dashboardRoute({
      method: 'DELETE',
      path: '/dashboard/v1/session',
      // Every role may end its own session; session.* is in every role's part of the table.
      action: 'session.read',
      handler: async (request, h) => {
        const actor = actorOf(request);
        await deps.signOut.execute({ merchantId: actor.merchant.id, userId: actor.user.id, sessionId: actor.sessionId });
        return h.response().code(204).unstate(SESSION_COOKIE);
      },
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/mfa',
      action: 'open',
      validate: { payload: Joi.object({ email, password }) },
      handler: async (request) => {
        const body = request.payload as { email: string; password: string };
        const claimed = await deps.claimMfa.execute({ ...body, ip: deps.clientIp.of(request) });
        return { secret: claimed.secret, otpauth_url: claimed.otpauthUrl };
      },
    }),
    dashboardRoute({
      method: 'GET',
      path: '/dashboard/v1/users',
      action: 'users.read',
      handler: async (request) => {
        const users = await deps.listTeamUsers.execute(actorOf(request).user);
        return presentList(users, presentUser);
      },
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/users',
      action: 'users.write',
      validate: {
        payload: Joi.object({
          email,
          password: Joi.string().min(1).max(1024).required(),
          role: Joi.string().valid(...USER_ROLES).required(),
          name: Joi.string().max(USER_NAME_MAX_LENGTH),
          code: stepUpCode,
        }),
      },
      handler: async (request, h) => {
        const body = request.payload as { email: string; password: string; role: UserRole; name?: string; code?: unknown };
        const user = await deps.addTeamUser.execute(actorOf(request).user, {
          email: body.email,
          password: body.password,
          role: body.role,
          ...(body.name === undefined ? {} : { name: body.name }),
          code: codeOf(body.code),
        });
        return h.response(presentUser(user)).code(201);
      },
    }),
    dashboardRoute({
      method: 'PATCH',
      path: '/dashboard/v1/users/{id}',
      action: 'users.write',
      validate: {
        params: userIdParams,
        payload: Joi.object({ role: Joi.string().valid(...USER_ROLES), status: Joi.string().valid(...USER_STATUSES), code: stepUpCode }),
      },
      handler: async (request) => {
        const { id } = request.params as { id: string };
        const body = (request.payload ?? {}) as { role?: UserRole; status?: UserStatus; code?: unknown };
        const change = { ...(body.role === undefined ? {} : { role: body.role }), ...(body.status === undefined ? {} : { status: body.status }), code: codeOf(body.code) };
        return presentUser(await deps.updateTeamUser.execute(actorOf(request).user, id, change));
      },
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/users/{id}/mfa',
      action: 'users.reset_mfa',
      validate: { params: userIdParams, payload: Joi.object({ code: stepUpCode }).allow(null) },
      handler: async (request) => {
        const { id } = request.params as { id: string };
        const body = (request.payload ?? {}) as { code?: unknown };
        return presentUser(await deps.resetTeamUserMfa.execute(actorOf(request).user, id, codeOf(body.code)));
      },
    }),
  ];
}
