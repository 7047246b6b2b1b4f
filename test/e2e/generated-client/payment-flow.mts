import createClient from 'openapi-fetch';
import type { paths } from './openapi.js';

/*
 * The README's test-mode payment, written against a client generated from the OpenAPI document
 * alone: types by openapi-typescript (`./openapi.ts`, made next to this file by
 * generated-client.test.ts from the document the service serves), calls by openapi-fetch. The
 * test type-checks this file against those types, strictly, then runs it: PAYMENTS_URL and
 * PAYMENTS_KEY say where and as whom. It prints what it saw as one JSON object.
 */

const baseUrl = process.env.PAYMENTS_URL ?? 'http://localhost:4242';
const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${process.env.PAYMENTS_KEY ?? ''}` } });

/** A fresh Idempotency-Key (and order id) per request. */
const fresh = (name: string): string => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

/** The answer's data, or a throw naming the error the service answered. */
function data<T>(step: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) throw new Error(`${step}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

const created = await client.POST('/v1/payment_intents', {
  params: { header: { 'Idempotency-Key': fresh('create') } },
  body: { amount: 25000, currency: 'THB', merchant_order_id: fresh('order'), return_url: 'https://shop.example.com/thanks' },
});
const intent = data('create', created);

const placed = await client.POST('/v1/payment_intents/{id}/attempts', {
  params: { path: { id: intent.id }, header: { 'Idempotency-Key': fresh('attempt') } },
  body: { payment_method: 'promptpay' },
});
const attempt = data('attempt', placed);

const simulated = await client.POST('/v1/test/payment_intents/{id}/simulate', {
  params: { path: { id: intent.id }, header: { 'Idempotency-Key': fresh('simulate') } },
  body: { outcome: 'succeeded' },
});
const paid = data('simulate', simulated);

const read = data('retrieve', await client.GET('/v1/payment_intents/{id}', { params: { path: { id: intent.id } } }));

const events = data('list events', await client.GET('/v1/events', { params: { query: { limit: 20 } } }));
const listed = events.data.find((event) => event.type === 'payment_intent.succeeded' && event.data.id === intent.id);
if (listed === undefined) throw new Error(`no payment_intent.succeeded event of ${intent.id} among ${events.data.length}`);
const retrieved = data('retrieve event', await client.GET('/v1/events/{id}', { params: { path: { id: listed.id } } }));

// An error answers its envelope, with `code` typed as the codes this operation lists for its statuses.
const missing = await client.GET('/v1/events/{id}', { params: { path: { id: 'evt_AAAAAAAAAAAAAAAAAAAAAAAAAA' } } });
const code:
  | 'resource_not_found'
  | 'invalid_parameter'
  | 'invalid_request'
  | 'invalid_api_version'
  | 'authentication_required'
  | 'live_not_enabled'
  | 'insufficient_permissions'
  | 'rate_limited'
  | 'api_error'
  | undefined = missing.error?.error.code;

console.log(
  JSON.stringify({
    created: { id: intent.id, status: intent.status, checkout_url: intent.checkout_url, request_id: created.response.headers.get('Request-Id') },
    attempt: { status: attempt.status, payment_intent: attempt.payment_intent, next_action: attempt.next_action?.type, http: placed.response.status },
    paid: { status: paid.status, fee: paid.fee?.amount, net: paid.net?.amount },
    read: { status: read.status, amount: read.amount, currency: read.currency },
    event: { listed, retrieved },
    missing: { status: missing.response.status, code },
  }),
);
