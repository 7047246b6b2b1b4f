import { ClaimMfa } from '@payments/core';
import { AppConfig } from '../../modules/app-tokens';
import { ClientIp } from '../../http/client-ip';
import { defineRoute } from '../../http/define-route';
import { objectSchema } from '../../http/typed-schema';
import { email, password } from '../schemas';
import { DASHBOARD_SCHEMAS } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/mfa',
  access: 'dashboard',
  action: 'open',
  validate: { payload: objectSchema({ email, password }) },
  openapi: {
    operationId: 'claimMfa',
    summary: 'Claim a second factor with email and password (once per user, until a reset)',
    description: 'Throttled with sign-in (same counts). A user who has a second factor gets the same 401 as a wrong password.',
    tag: 'Session',
    success: { status: 200, schema: DASHBOARD_SCHEMAS.MfaClaim, description: 'The TOTP secret, shown this once.' },
  },
  uses: { claimMfa: ClaimMfa, config: AppConfig },
  handler: ({ claimMfa, config }) => {
    // Counted with sign-in's per-IP throttle.
    const clientIp = new ClientIp(config.trustedProxies);
    return async (request) => {
      const claimed = await claimMfa.execute({ ...request.payload, ip: clientIp.of(request) });
      return { secret: claimed.secret, otpauth_url: claimed.otpauthUrl };
    };
  },
});
