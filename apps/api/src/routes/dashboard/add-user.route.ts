import { AddTeamUser, USER_NAME_MAX_LENGTH, USER_ROLES } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { objectSchema, oneOf, required } from '../../http/typed-schema';
import { STEP_UP } from '../../openapi/build-dashboard-openapi';
import { actorOf } from '../../plugins/dashboard/actor';
import { codeOf, email, password, stepUpCode } from '../schemas';
import { DASHBOARD_SCHEMAS, presentUser } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/users',
  access: 'dashboard',
  action: 'users.write',
  validate: {
    payload: objectSchema({
      email,
      password,
      role: required(oneOf(USER_ROLES)),
      name: Joi.string().max(USER_NAME_MAX_LENGTH),
      code: stepUpCode,
    }),
  },
  openapi: {
    operationId: 'addUser',
    summary: 'Add a member (they claim their second factor before signing in)',
    description: `Only an owner adds an owner. A notice goes to the account's email. ${STEP_UP}`,
    tag: 'Team',
    stepUp: true,
    success: { status: 201, schema: DASHBOARD_SCHEMAS.DashboardUser, description: 'The new member.' },
    errors: [409],
  },
  uses: { addTeamUser: AddTeamUser },
  handler:
    ({ addTeamUser }) =>
    async (request, h) => {
      const body = request.payload;
      const user = await addTeamUser.execute(actorOf(request).user, {
        email: body.email,
        password: body.password,
        role: body.role,
        ...(body.name === undefined ? {} : { name: body.name }),
        code: codeOf(body.code),
      });
      return h.response(presentUser(user)).code(201);
    },
});
