import type { Request } from '@hapi/hapi';
import type { AccountScope, GetPaymentIntent, Mode } from '@payments/core';
import { scopeIn } from '../../plugins/dashboard/actor';

/**
 * The signed-in user's scope in `mode`, once the intent `id` is found in it: what a dashboard
 * route listing an intent's refunds, disputes or events reads, so an intent of another merchant or
 * mode is 404 rather than an empty list.
 */
export async function intentScope(getIntent: GetPaymentIntent, request: Pick<Request, 'auth'>, mode: Mode, id: string): Promise<AccountScope> {
  const scope = scopeIn(request, mode);
  await getIntent.execute({ scope, id });
  return scope;
}
