import { apiObjectAt, apiObjectsAt, jsonAt, objectAt, textAt, type ApiObject, type JsonObject } from './json';
import { createBody, unique, withAppAndMerchant, type TestApp, type TestMerchant, type TestResponse } from './test-app';

/** The calls a merchant's integration makes in a payment, as small helpers over one test app. */
export function paymentFlow(t0: TestApp, key: string) {
  const post = (url: string, payload?: unknown, idempotencyKey = unique()): Promise<TestResponse> =>
    t0.request({ method: 'POST', url, key, idempotencyKey, payload });
  const get = async (url: string): Promise<JsonObject> => objectAt((await t0.request({ method: 'GET', url, key })).result);
  return {
    post,
    get,
    createIntent: async (overrides: Record<string, unknown> = {}): Promise<ApiObject> =>
      apiObjectAt((await post('/v1/payment_intents', createBody(overrides))).result),
    attempt: (id: string, body: Record<string, unknown> = { payment_method: 'promptpay' }, idempotencyKey?: string) =>
      post(`/v1/payment_intents/${id}/attempts`, body, idempotencyKey),
    simulate: (id: string, body: Record<string, unknown>, idempotencyKey?: string) => post(`/v1/test/payment_intents/${id}/simulate`, body, idempotencyKey),
    advance: (id: string, clock: 'expiry' | 'release', idempotencyKey?: string) => post(`/v1/test/payment_intents/${id}/advance`, { clock }, idempotencyKey),
    intent: async (id: string): Promise<ApiObject> => apiObjectAt(await get(`/v1/payment_intents/${id}`)),
    attempts: async (id: string): Promise<ApiObject[]> => apiObjectsAt(await get(`/v1/payment_intents/${id}/attempts`), 'data'),
    eventTypes: async (id: string): Promise<string[]> =>
      apiObjectsAt(await get('/v1/events?limit=100'), 'data')
        .filter((event) => jsonAt(event, 'data', 'id') === id)
        .map((event) => textAt(event, 'type'))
        .reverse(),
  };
}

/** withAppAndMerchant, with the merchant's payment flow. */
export function withMerchantFlow(
  options: Parameters<typeof withAppAndMerchant>[0],
  use: (started: { t0: TestApp; shop: TestMerchant; flow: ReturnType<typeof paymentFlow> }) => unknown,
): void {
  withAppAndMerchant(options, (started) => use({ ...started, flow: paymentFlow(started.t0, started.shop.testKey) }));
}
