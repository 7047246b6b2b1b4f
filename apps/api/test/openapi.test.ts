import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { CreateMerchant, EVENT_TYPES, ReleaseFunds, ReportChannelSettlements } from '@payments/core';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import { FakeClock } from '@payments/in-memory';
import { documentedCodes } from './openapi/error-codes';
import { ResponseValidator } from './openapi/response-validator';
import { createBody, startTestApp, unique, type TestApp } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';
import { apiObjectAt, apiObjectsAt, jsonAt, keysAt, listAt, objectAt, textAt, type JsonObject } from './helpers/json';

const clock = new FakeClock(new Date());
let t0: TestApp;
let document: JsonObject;
let validator: ResponseValidator;

test.before(async () => {
  t0 = await startTestApp({ clock });
  const res = await t0.request({ method: 'GET', url: '/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}: ${res.payload}`);
  document = objectAt(JSON.parse(res.payload));
  validator = new ResponseValidator(document);
});
test.after.always(async () => t0?.close());

/** The `/v1` routes the server really has, as `METHOD path`. */
function serverRoutes(): string[] {
  return t0.server
    .table()
    .filter((route) => route.path.startsWith('/v1/'))
    .map((route) => `${route.method.toUpperCase()} ${route.path}`)
    .sort();
}

/** Sends a request and checks its answer against the document for the route it reached. */
async function call(
  key: string | undefined,
  method: string,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: JsonObject; headers: Readonly<Record<string, unknown>> }> {
  const res = await t0.request({
    method,
    url,
    ...(key ? { key } : {}),
    ...(method === 'POST' ? { idempotencyKey: unique() } : {}),
    ...(payload === undefined ? {} : { payload }),
    headers,
  });
  // A CSV export answers text: it is checked as the text it is, and the caller gets no object.
  const csv = String(res.headers['content-type']).startsWith('text/csv');
  const body = csv ? {} : objectAt(JSON.parse(res.payload));
  const path = res.request.route.path;
  validator.check(method, path, res.statusCode, csv ? res.payload : body, res.headers);
  return { status: res.statusCode, body, headers: res.headers };
}

test('every /v1 route of the server is in the document, with an operation and a success answer', (t) => {
  const documented = Object.entries(objectAt(document.paths)).flatMap(([path, item]) =>
    Object.entries(objectAt(item))
      .filter(([, operation]) => jsonAt(operation, 'operationId') && !jsonAt(operation, 'x-undocumented'))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
  const missing = serverRoutes().filter((route) => !documented.includes(route));
  t.deepEqual(
    missing,
    [],
    `routes missing from the OpenAPI document (give each an openapi entry in its route file under apps/api/src/routes): ${missing.join(', ')}`,
  );
  t.is(document.openapi, '3.1.0');
});

test('every operation behind an API key names the permission a restricted key needs: a read for a GET, a write for a POST, said in its description too', (t) => {
  const problems: string[] = [];
  for (const [path, item] of Object.entries(objectAt(document.paths))) {
    for (const [method, operation] of Object.entries(objectAt(item))) {
      const permission = jsonAt(operation, 'x-permission');
      if (Array.isArray(jsonAt(operation, 'security'))) {
        if (permission !== undefined) problems.push(`${method} ${path}: an open operation names ${JSON.stringify(permission)}`);
        continue;
      }
      const access = method === 'get' ? 'read' : 'write';
      if (typeof permission !== 'string' || !new RegExp(`^[a-z_]+:${access}$`).test(permission))
        problems.push(`${method} ${path}: x-permission ${JSON.stringify(permission)}`);
      else if (!textAt(operation, 'description').includes(`\`${permission}\``)) problems.push(`${method} ${path}: the description does not name ${permission}`);
      if (!(documentedCodes(document, method, path, 403) ?? []).includes('insufficient_permissions'))
        problems.push(`${method} ${path}: 403 insufficient_permissions not listed`);
    }
  }
  t.deepEqual(problems, []);
});

test('docs/openapi.json is what the server serves (run `npm run openapi` after changing a route)', (t) => {
  const written = objectAt(JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'openapi.json'), 'utf8')));
  t.deepEqual(written, document);
});

/** Every operation of the document, its webhooks' included, as `label` and the operation. */
function operations(): { label: string; operation: JsonObject }[] {
  const of = (section: 'paths' | 'webhooks') =>
    Object.entries(objectAt(document, section)).flatMap(([path, item]) =>
      Object.entries(objectAt(item)).map(([method, operation]) => ({ label: `${section} ${method.toUpperCase()} ${path}`, operation: objectAt(operation) })),
    );
  return [...of('paths'), ...of('webhooks')];
}

/** What a `$ref` into the document points at. */
function resolved(value: unknown): JsonObject {
  const ref = jsonAt(value, '$ref');
  if (typeof ref !== 'string') return objectAt(value);
  return objectAt(document, ...ref.slice(2).split('/'));
}

/** The schemas of the document: the components and those written in place in bodies and answers, with where each is. */
function schemas(): { where: string; schema: unknown }[] {
  const found = Object.entries(objectAt(document, 'components', 'schemas')).map(([name, schema]) => ({ where: `components.schemas.${name}`, schema }));
  for (const { label, operation } of operations()) {
    const body = jsonAt(operation, 'requestBody', 'content', 'application/json', 'schema');
    if (body) found.push({ where: `${label} request body`, schema: body });
    for (const [status, response] of Object.entries(objectAt(operation, 'responses'))) {
      const schema = jsonAt(response, 'content', 'application/json', 'schema');
      if (schema) found.push({ where: `${label} ${status}`, schema });
    }
  }
  return found;
}

/** The properties in a schema and every schema inside it, as `where.name`, with their schemas. */
function propertiesIn(where: string, schema: unknown): { where: string; property: unknown }[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => propertiesIn(`${where}[${index}]`, item));
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) => {
    if (key === 'properties') {
      return Object.entries(objectAt(value)).flatMap(([name, property]) => [
        { where: `${where}.${name}`, property },
        ...propertiesIn(`${where}.${name}`, property),
      ]);
    }
    return ['items', 'allOf', 'anyOf', 'oneOf', 'additionalProperties'].includes(key) ? propertiesIn(`${where}/${key}`, value) : [];
  });
}

const described = (value: unknown): boolean => {
  const description = jsonAt(value, 'description');
  return typeof description === 'string' && description.trim().length > 0;
};

test('every operation, parameter, tag and property of every body and answer has a description', (t) => {
  const missing: string[] = [];
  for (const { label, operation } of operations()) {
    if (!described(operation)) missing.push(`${label}: the operation`);
    for (const parameter of listAt(operation, 'parameters')) {
      if (!described(resolved(parameter))) missing.push(`${label}: parameter ${textAt(resolved(parameter), 'name')}`);
    }
    for (const [status, response] of Object.entries(objectAt(operation, 'responses'))) if (!described(response)) missing.push(`${label} ${status}`);
  }
  for (const tag of listAt(document, 'tags')) if (!described(tag)) missing.push(`tag ${textAt(tag, 'name')}`);
  for (const { where, schema } of schemas()) {
    for (const found of propertiesIn(where, schema)) if (!described(found.property)) missing.push(found.where);
  }
  t.deepEqual(missing, [], 'describe each for a person: in the schema beside its presenter, the joi schema of the route, or its openapi entry');
});

test('every request body and success answer has an example, and each example is what its schema describes', (t) => {
  const problems: string[] = [];
  const check = (where: string, media: unknown) => {
    const schema = objectAt(media, 'schema');
    const example = jsonAt(media, 'example');
    if (example === undefined) return void problems.push(`${where}: no example`);
    const errors = validator.errorsOf(schema, example);
    if (errors !== undefined) problems.push(`${where}: ${errors}`);
  };
  for (const { label, operation } of operations()) {
    const body = jsonAt(operation, 'requestBody', 'content', 'application/json');
    if (body) check(`${label} request body`, body);
    for (const [status, response] of Object.entries(objectAt(operation, 'responses'))) {
      const media = jsonAt(response, 'content', 'application/json');
      if (Number(status) < 400 && media) check(`${label} ${status}`, media);
    }
  }
  for (const [name, schema] of Object.entries(objectAt(document, 'components', 'schemas'))) {
    for (const example of Array.isArray(jsonAt(schema, 'examples')) ? listAt(schema, 'examples') : []) {
      const errors = validator.errorsOf({ $ref: `#/components/schemas/${name}` }, example);
      if (errors !== undefined) problems.push(`components.schemas.${name} example: ${errors}`);
    }
  }
  t.deepEqual(problems, []);
});

test('each error status of an operation lists the codes it can answer, each with what it means', (t) => {
  const problems: string[] = [];
  for (const [path, item] of Object.entries(objectAt(document, 'paths'))) {
    for (const [method, operation] of Object.entries(objectAt(item))) {
      for (const [status, response] of Object.entries(objectAt(operation, 'responses'))) {
        if (Number(status) < 400) continue;
        const codes = documentedCodes(document, method, path, Number(status)) ?? [];
        if (codes.length === 0) problems.push(`${method} ${path} ${status}: no codes`);
        for (const code of codes)
          if (!textAt(response, 'description').includes(`\`${code}\``)) problems.push(`${method} ${path} ${status}: ${code} unexplained`);
      }
    }
  }
  t.deepEqual(problems, []);
  // The codes come from one table per route, merged with those every route and every POST can answer.
  t.deepEqual(documentedCodes(document, 'post', '/v1/payment_intents', 409), ['idempotency_key_in_use', 'merchant_order_id_taken']);
  t.deepEqual(documentedCodes(document, 'post', '/v1/payment_intents/{id}/attempts', 402), ['payment_failed']);
  t.deepEqual(documentedCodes(document, 'get', '/v1/events/{id}', 404), ['resource_not_found']);
  t.deepEqual(documentedCodes(document, 'get', '/v1/balance', 401), ['authentication_required']);
  t.deepEqual(documentedCodes(document, 'get', '/v1/openapi.json', 500), ['api_error']);
});

test('answers document the headers the service sends: Request-Id and Api-Version on each, Idempotent-Replayed on POSTs, Retry-After where it comes', (t) => {
  const problems: string[] = [];
  for (const [path, item] of Object.entries(objectAt(document, 'paths'))) {
    for (const [method, operation] of Object.entries(objectAt(item))) {
      for (const [status, response] of Object.entries(objectAt(operation, 'responses'))) {
        const headers = keysAt(response, 'headers');
        const expected = [
          'Request-Id',
          'Api-Version',
          ...(method === 'post' && ['2', '402', '403', '404', '409'].some((prefix) => status.startsWith(prefix)) ? ['Idempotent-Replayed'] : []),
          ...(['429', '503'].includes(status) || (method === 'post' && status === '409') ? ['Retry-After'] : []),
        ];
        const lacking = expected.filter((name) => !headers.includes(name));
        if (lacking.length > 0) problems.push(`${method} ${path} ${status}: ${lacking.join(', ')}`);
      }
    }
  }
  t.deepEqual(problems, []);
  for (const name of keysAt(document, 'components', 'headers')) t.true(described(objectAt(document, 'components', 'headers', name)), name);
});

test('webhooks: one entry per event type, its body the Event with that type, with the signature headers', (t) => {
  t.deepEqual(keysAt(document, 'webhooks'), [...EVENT_TYPES]);
  for (const type of EVENT_TYPES) {
    const operation = objectAt(document, 'webhooks', type, 'post');
    const media = objectAt(operation, 'requestBody', 'content', 'application/json');
    t.deepEqual(listAt(media, 'schema', 'allOf')[0], { $ref: '#/components/schemas/Event' });
    t.is(jsonAt(listAt(media, 'schema', 'allOf')[1], 'properties', 'type', 'const'), type);
    t.is(textAt(media, 'example', 'type'), type);
    t.not(
      validator.errorsOf(objectAt(media, 'schema'), { ...objectAt(media, 'example'), type: type === 'refund.failed' ? 'refund.created' : 'refund.failed' }),
      undefined,
    );
    t.deepEqual(
      listAt(operation, 'parameters').map((parameter) => textAt(resolved(parameter), 'name')),
      ['X-Webhook-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature'],
    );
    t.truthy(jsonAt(operation, 'responses', '200'));
  }
});

test.serial('answers of every /v1 route, successes and errors, validate against the document', async (t) => {
  const created = await t0.app.get(CreateMerchant).execute({
    name: 'OpenAPI Shop',
    email: `openapi-${unique()}@example.com`,
    password: 'correct horse battery',
    settlementSchedule: 'manual',
  });
  const key = created.testApiKey.secret;
  const other = await t0.merchant();

  // Payment intents: create, replay-free errors, list, retrieve, cancel.
  const intent = apiObjectAt((await call(key, 'POST', '/v1/payment_intents', createBody({ amount: 10000, metadata: { order: '1' } }))).body);
  t.truthy(intent.checkout_url);
  t.is((await call(key, 'POST', '/v1/payment_intents', { amount: 0, currency: 'THB', merchant_order_id: 'x' })).status, 400);
  t.is((await call(key, 'POST', '/v1/payment_intents', createBody({ merchant_order_id: intent.merchant_order_id }))).status, 409);
  t.is((await call(undefined, 'GET', '/v1/payment_intents')).status, 401);
  t.is((await call(key, 'GET', '/v1/payment_intents?status=created&limit=2')).status, 200);
  t.is((await call(key, 'GET', `/v1/payment_intents/${intent.id}`)).status, 200);
  t.is((await call(other.testKey, 'GET', `/v1/payment_intents/${intent.id}`)).status, 404);
  // A replay names itself in Idempotent-Replayed, which the document lists for it.
  const replayed = { payload: createBody(), headers: { 'idempotency-key': unique() } };
  t.is((await call(key, 'POST', '/v1/payment_intents', replayed.payload, replayed.headers)).headers['idempotent-replayed'], undefined);
  t.is((await call(key, 'POST', '/v1/payment_intents', replayed.payload, replayed.headers)).headers['idempotent-replayed'], 'true');
  const toCancel = apiObjectAt((await call(key, 'POST', '/v1/payment_intents', createBody())).body);
  t.is((await call(key, 'POST', `/v1/payment_intents/${toCancel.id}/cancel`)).body.status, 'canceled');
  t.is((await call(key, 'POST', `/v1/payment_intents/${toCancel.id}/cancel`)).status, 409);

  // Attempts and the test helpers: pay, settle at the channel, release.
  t.is((await call(key, 'POST', `/v1/payment_intents/${intent.id}/attempts`, { payment_method: 'promptpay' })).status, 201);
  t.is((await call(key, 'POST', `/v1/payment_intents/${intent.id}/attempts`, { payment_method: 'promptpay' })).status, 200);
  t.is(listAt((await call(key, 'GET', `/v1/payment_intents/${intent.id}/attempts`)).body, 'data').length, 1);
  t.is((await call(key, 'POST', `/v1/test/payment_intents/${intent.id}/advance`, { clock: 'release' })).status, 409);
  t.is((await call(key, 'POST', `/v1/test/payment_intents/${intent.id}/simulate`, { outcome: 'succeeded' })).body.status, 'succeeded');
  await tick();
  t.is((await call(key, 'GET', `/v1/payment_intents/${intent.id}`)).body.status, 'channel_settled');
  t.is((await call(key, 'POST', `/v1/test/payment_intents/${intent.id}/advance`, { clock: 'release' })).status, 200);
  await tick();

  // Balance, settlements (this merchant settles on demand; the other one is on a schedule).
  t.is((await call(key, 'GET', '/v1/balance')).status, 200);
  const settlement = await call(key, 'POST', '/v1/settlements');
  t.is(settlement.status, 201, JSON.stringify(settlement.body));
  t.is((await call(other.testKey, 'POST', '/v1/settlements')).status, 403);
  t.is(listAt((await call(key, 'GET', '/v1/settlements')).body, 'data').length, 1);
  t.is((await call(key, 'GET', `/v1/settlements/${textAt(settlement.body, 'id')}`)).status, 200);

  // Disputes on a second paid intent.
  const disputed = apiObjectAt((await call(key, 'POST', '/v1/payment_intents', createBody({ amount: 5000 }))).body);
  await call(key, 'POST', `/v1/payment_intents/${disputed.id}/attempts`, { payment_method: 'promptpay' });
  await call(key, 'POST', `/v1/test/payment_intents/${disputed.id}/simulate`, { outcome: 'succeeded' });
  await call(key, 'POST', `/v1/test/payment_intents/${disputed.id}/simulate`, { outcome: 'dispute_opened' });
  const disputes = apiObjectsAt((await call(key, 'GET', '/v1/disputes?status=opened')).body, 'data');
  t.is(disputes.length, 1);
  const disputeId = disputes[0].id;
  t.is((await call(key, 'GET', `/v1/disputes/${disputeId}`)).status, 200);
  t.is((await call(key, 'POST', `/v1/disputes/${disputeId}/evidence`, { evidence: { receipt: 'https://shop.example.com/r/1' } })).status, 200);
  t.is((await call(key, 'GET', '/v1/disputes/dp_missing')).status, 404);

  // Refunds of the first intent (paid and released): create, simulate, list, retrieve, the rules' 409s.
  const refund = await call(key, 'POST', '/v1/refunds', { payment_intent: intent.id, amount: 1000, reason: 'requested_by_customer' });
  t.is(refund.status, 201, JSON.stringify(refund.body));
  const refundId = textAt(refund.body, 'id');
  t.is((await call(key, 'POST', `/v1/test/refunds/${refundId}/simulate`, { outcome: 'succeeded' })).body.status, 'succeeded');
  t.is((await call(key, 'POST', '/v1/refunds', { payment_intent: intent.id, amount: 10_000 })).status, 409);
  t.is((await call(key, 'POST', '/v1/refunds', { payment_intent: disputed.id })).status, 409);
  t.is(listAt((await call(key, 'GET', `/v1/refunds?payment_intent=${intent.id}`)).body, 'data').length, 1);
  t.is((await call(key, 'GET', `/v1/refunds/${refundId}`)).status, 200);
  t.is((await call(other.testKey, 'GET', `/v1/refunds/${refundId}`)).status, 404);

  // Balance transactions: every line of this history, one retrieved, another merchant's 404, a bad filter 400.
  const lines = apiObjectsAt((await call(key, 'GET', '/v1/balance_transactions?limit=100')).body, 'data');
  t.true(lines.length >= 5);
  t.is((await call(key, 'GET', `/v1/balance_transactions?type=refund&payment_intent=${intent.id}`)).status, 200);
  t.deepEqual((await call(key, 'GET', `/v1/balance_transactions/${lines[0].id}`)).body, lines[0]);
  t.is((await call(other.testKey, 'GET', `/v1/balance_transactions/${lines[0].id}`)).status, 404);
  t.is((await call(key, 'GET', '/v1/balance_transactions?created[gte]=2026-13-01')).status, 400);

  // CSV exports: a file of each (its header row the document's), and a page parameter's JSON error.
  t.is((await call(key, 'GET', '/v1/exports/payment_intents.csv?status=channel_settled')).status, 200);
  t.is((await call(key, 'GET', '/v1/exports/settlements.csv')).status, 200);
  t.is((await call(key, 'GET', `/v1/exports/balance_transactions.csv?settlement=${textAt(settlement.body, 'id')}`)).status, 200);
  t.is((await call(key, 'GET', '/v1/exports/balance_transactions.csv?limit=10')).status, 400);

  // FX, events, webhook keys, versions.
  t.is((await call(key, 'GET', '/v1/fx/quotes?from=USD&to=THB&amount=1000')).status, 200);
  t.is((await call(key, 'GET', '/v1/fx/quotes?from=usd&to=THB')).status, 400);
  const events = apiObjectsAt((await call(key, 'GET', '/v1/events?limit=100')).body, 'data');
  t.true(events.length > 3);
  t.deepEqual((await call(key, 'GET', `/v1/events/${events[0].id}`)).body, events[0]);
  t.is((await call(other.testKey, 'GET', `/v1/events/${events[0].id}`)).status, 404);
  t.is((await call(key, 'GET', '/v1/webhook_public_keys')).status, 200);
  t.is((await call(key, 'GET', '/v1/balance', undefined, { 'api-version': '1999-01-01' })).status, 400);

  // Every documented operation answered at least once with its success status.
  const succeeded = Object.entries(objectAt(document.paths)).flatMap(([path, item]) =>
    Object.entries(objectAt(item)).map(([method, operation]) => `${method.toUpperCase()} ${path} ${keysAt(operation, 'responses')[0]}`),
  );
  const unseen = succeeded.filter((route) => !route.startsWith('GET /v1/openapi.json') && !validator.seen.has(route));
  t.deepEqual(unseen, []);
});

/** One worker pass of the jobs a paid intent goes through (simulator settlement, channel_settled, release). */
async function tick(): Promise<void> {
  clock.advance(1000);
  await t0.app.get(SimulatorPaymentChannel).tick();
  await runJob(t0.app, ReportChannelSettlements, 100);
  await runJob(t0.app, ReleaseFunds, 100);
}
