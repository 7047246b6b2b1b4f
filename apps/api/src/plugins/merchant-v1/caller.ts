import type { Request } from '@hapi/hapi';
import { CoreError, type AccountScope, type ApiCaller } from '@payments/core';
import '../../http/request-state';

/** Who is calling a `/v1` route: every route there runs behind the api-key scheme, which sets it. */
export function callerOf(request: Pick<Request, 'auth'>): ApiCaller {
  const caller = request.auth.credentials?.caller;
  if (!caller) throw new CoreError('authentication_required', 'authentication', 'Authentication required.');
  return caller;
}

/** The merchant and mode of the calling key: every read and write is confined to it. */
export function scopeOf(request: Pick<Request, 'auth'>): AccountScope {
  const caller = callerOf(request);
  return { merchantId: caller.merchant.id, mode: caller.mode };
}
