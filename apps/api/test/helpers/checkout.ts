import type { ServerInjectResponse } from '@hapi/hapi';
import { apiObjectAt, apiObjectsAt, objectAt, textAt, type ApiObject, type JsonObject } from './json';
import { createBody, unique, type TestApp } from './test-app';

/** What a payer's browser does with a checkout link, over `server.inject`. */
export function checkoutClient(t0: TestApp) {
  const json = (res: ServerInjectResponse): JsonObject =>
    String(res.headers['content-type']).startsWith('application/json') ? objectAt(JSON.parse(res.payload)) : {};
  return {
    /** Creates an intent with `key` and returns it with its token (the last path segment of checkout_url). */
    async createIntent(key: string, overrides: Record<string, unknown> = {}): Promise<{ intent: ApiObject; token: string; path: string }> {
      const res = await t0.request({ method: 'POST', url: '/v1/payment_intents', key, idempotencyKey: unique(), payload: createBody(overrides) });
      const intent = apiObjectAt(res.result);
      const path = new URL(textAt(intent, 'checkout_url')).pathname;
      return { intent, token: path.slice('/c/'.length), path };
    },
    page: (token: string, headers: Record<string, string> = {}) => t0.server.inject({ method: 'GET', url: `/c/${token}`, headers }),
    async status(token: string): Promise<{ res: ServerInjectResponse; body: JsonObject }> {
      const res = await t0.server.inject({ method: 'GET', url: `/checkout/sessions/${token}/status` });
      return { res, body: json(res) };
    },
    async pay(token: string, payload: string | object = { payment_method: 'promptpay' }): Promise<{ res: ServerInjectResponse; body: JsonObject }> {
      const res = await t0.server.inject({ method: 'POST', url: `/checkout/sessions/${token}/pay`, payload });
      return { res, body: json(res) };
    },
    async simulate(token: string, payload: string | object): Promise<{ res: ServerInjectResponse; body: JsonObject }> {
      const res = await t0.server.inject({ method: 'POST', url: `/checkout/sessions/${token}/simulate`, payload });
      return { res, body: json(res) };
    },
    async attempts(key: string, intentId: string): Promise<ApiObject[]> {
      return apiObjectsAt((await t0.request({ method: 'GET', url: `/v1/payment_intents/${intentId}/attempts`, key })).result, 'data');
    },
    async intent(key: string, intentId: string): Promise<ApiObject> {
      return apiObjectAt((await t0.request({ method: 'GET', url: `/v1/payment_intents/${intentId}`, key })).result);
    },
    async expire(key: string, intentId: string): Promise<void> {
      await t0.request({ method: 'POST', url: `/v1/test/payment_intents/${intentId}/advance`, key, idempotencyKey: unique(), payload: { clock: 'expiry' } });
    },
  };
}
