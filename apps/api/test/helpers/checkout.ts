import type { ServerInjectResponse } from '@hapi/hapi';
import { createBody, unique, type TestApp } from './test-app';

export type Json = Record<string, any>;

/** What a payer's browser does with a checkout link, over `server.inject`. */
export function checkoutClient(t0: TestApp) {
  const json = (res: ServerInjectResponse): Json => (String(res.headers['content-type']).startsWith('application/json') ? JSON.parse(res.payload) : {});
  return {
    /** Creates an intent with `key` and returns it with its token (the last path segment of checkout_url). */
    async createIntent(key: string, overrides: Record<string, unknown> = {}): Promise<{ intent: Json; token: string; path: string }> {
      const res = await t0.request({ method: 'POST', url: '/v1/payment_intents', key, idempotencyKey: unique(), payload: createBody(overrides) });
      const intent = res.result as Json;
      const path = new URL(intent.checkout_url as string).pathname;
      return { intent, token: path.slice('/c/'.length), path };
    },
    page: (token: string, headers: Record<string, string> = {}) => t0.server.inject({ method: 'GET', url: `/c/${token}`, headers }),
    async status(token: string): Promise<{ res: ServerInjectResponse; body: Json }> {
      const res = await t0.server.inject({ method: 'GET', url: `/checkout/sessions/${token}/status` });
      return { res, body: json(res) };
    },
    async pay(token: string, payload: unknown = { payment_method: 'promptpay' }): Promise<{ res: ServerInjectResponse; body: Json }> {
      const res = await t0.server.inject({ method: 'POST', url: `/checkout/sessions/${token}/pay`, payload: payload as object });
      return { res, body: json(res) };
    },
    async simulate(token: string, payload: unknown): Promise<{ res: ServerInjectResponse; body: Json }> {
      const res = await t0.server.inject({ method: 'POST', url: `/checkout/sessions/${token}/simulate`, payload: payload as object });
      return { res, body: json(res) };
    },
    async attempts(key: string, intentId: string): Promise<Json[]> {
      return ((await t0.request({ method: 'GET', url: `/v1/payment_intents/${intentId}/attempts`, key })).result as Json).data as Json[];
    },
    async intent(key: string, intentId: string): Promise<Json> {
      return (await t0.request({ method: 'GET', url: `/v1/payment_intents/${intentId}`, key })).result as Json;
    },
    async expire(key: string, intentId: string): Promise<void> {
      await t0.request({ method: 'POST', url: `/v1/test/payment_intents/${intentId}/advance`, key, idempotencyKey: unique(), payload: { clock: 'expiry' } });
    },
  };
}
