import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { FakeClock } from '@payments/in-memory';
import { buildDashboardOpenApi } from '../src/openapi/build-dashboard-openapi';
import type { OpenApiDocument } from '../src/openapi/build-openapi';
import { asUser, freshCode, signIn, type SignedInUser } from './helpers/dashboard';
import { createBody, startTestApp, unique, type TestApp } from './helpers/test-app';
import { ResponseValidator } from './openapi/response-validator';
import { apiObjectAt, apiObjectsAt, jsonAt, listAt, objectAt, textAt } from './helpers/json';

const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
let t0: TestApp;
let document: OpenApiDocument;
let validator: ResponseValidator;
test.before(async () => {
  t0 = await startTestApp({ clock });
  document = buildDashboardOpenApi(t0.server.table());
  validator = new ResponseValidator(document);
});
test.after.always(async () => t0?.close());

/** Sends a dashboard request and checks its answer against the document for the route it reached. */
async function call(user: SignedInUser | undefined, method: string, url: string, payload?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await (user ? asUser(t0, user, { method, url, payload }) : t0.request({ method, url, payload }));
  // A CSV download is checked as the text it is.
  const csv = String(res.headers['content-type']).startsWith('text/csv');
  const body: unknown = res.payload === '' ? undefined : csv ? res.payload : JSON.parse(res.payload);
  if (body !== undefined) validator.check(method, res.request.route.path, res.statusCode, body, res.headers);
  return { status: res.statusCode, body };
}

test('every /dashboard/v1 route is in the document, with an operation, its callers and a success answer', (t) => {
  const routes = t0.server
    .table()
    .filter((route) => route.path.startsWith('/dashboard/v1/'))
    .map((route) => `${route.method.toUpperCase()} ${route.path}`)
    .sort();
  const documented = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.operationId && !operation['x-undocumented'])
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
  t.deepEqual(
    routes.filter((route) => !documented.includes(route)),
    [],
    'give each an openapi entry in its route file under apps/api/src/routes',
  );
  t.deepEqual(document.paths['/dashboard/v1/users/{id}/mfa'].post['x-roles'], ['owner', 'admin']);
  t.deepEqual(document.paths['/dashboard/v1/webhook_deliveries'].get['x-roles'], ['owner', 'admin', 'developer', 'viewer']);
  t.deepEqual(document.paths['/dashboard/v1/session'].post.security, []);
  // The delivery log is not a mode route: no parameter is required.
  t.deepEqual(
    listAt(document.paths['/dashboard/v1/webhook_deliveries'].get, 'parameters').filter((p) => jsonAt(p, 'required')),
    [],
  );
  for (const [path, method] of [
    ['/dashboard/v1/users', 'post'],
    ['/dashboard/v1/users/{id}', 'patch'],
    ['/dashboard/v1/users/{id}/mfa', 'post'],
    ['/dashboard/v1/payout_methods', 'post'],
    ['/dashboard/v1/payout_methods/{id}/default', 'post'],
  ] as const) {
    const operation = document.paths[path][method];
    t.truthy(jsonAt(operation, 'responses', '429'), `${method} ${path} lists 429`);
    t.regex(textAt(operation, 'description'), /mfa_code_invalid/);
    const ref = textAt(operation, 'requestBody', 'content', 'application/json', 'schema', '$ref');
    const body = document.components.schemas[ref.slice(ref.lastIndexOf('/') + 1)];
    t.truthy(jsonAt(body, 'properties', 'code'), `${method} ${path} takes code`);
  }
});

test('docs/dashboard-openapi.json is what the route table says (run `npm run openapi` after changing a dashboard route)', (t) => {
  const written = objectAt(JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'dashboard-openapi.json'), 'utf8')));
  t.deepEqual(written, JSON.parse(JSON.stringify(document)));
});

test.serial('answers of the dashboard routes, successes and errors, validate against the document', async (t) => {
  const shop = await t0.merchant();
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const code = () => freshCode(t0, clock, owner);

  // Session, the MFA claim and sign-in refusals.
  t.is((await call(owner, 'GET', '/dashboard/v1/session')).status, 200);
  t.is((await call(undefined, 'GET', '/dashboard/v1/session')).status, 401);
  t.is((await call(undefined, 'POST', '/dashboard/v1/session', { email: owner.email, password: 'wrong password', code: '000000' })).status, 401);
  t.is((await call(undefined, 'POST', '/dashboard/v1/session', { email: owner.email, extra: 1 })).status, 400);

  // Team, with the step-up code.
  const email = `member-${unique()}@example.com`;
  t.is((await call(owner, 'POST', '/dashboard/v1/users', { email, password: 'a long enough password', role: 'developer' })).status, 403);
  const member = apiObjectAt(
    (await call(owner, 'POST', '/dashboard/v1/users', { email, password: 'a long enough password', role: 'developer', code: code() })).body,
  );
  t.is((await call(owner, 'POST', '/dashboard/v1/users', { email, password: 'a long enough password', role: 'viewer', code: code() })).status, 409);
  t.is((await call(undefined, 'POST', '/dashboard/v1/mfa', { email, password: 'a long enough password' })).status, 200);
  t.is((await call(owner, 'GET', '/dashboard/v1/users')).status, 200);
  t.is((await call(owner, 'PATCH', `/dashboard/v1/users/${member.id}`, { role: 'admin', code: code() })).status, 200);
  t.is((await call(owner, 'POST', `/dashboard/v1/users/${member.id}/mfa`, { code: code() })).status, 200);
  t.is((await call(owner, 'PATCH', '/dashboard/v1/users/usr_00000000000000000000', { status: 'disabled' })).status, 404);

  // Settings: the four fields always there, null when unset.
  const settings = await call(owner, 'GET', '/dashboard/v1/settings');
  t.like(settings.body, { support_email: null, statement_descriptor: null });
  t.is((await call(owner, 'PATCH', '/dashboard/v1/settings', { support_email: 'help@example.com' })).status, 200);

  // Keys.
  const apiKey = apiObjectAt((await call(owner, 'POST', '/dashboard/v1/api_keys', { mode: 'test', name: 'doc' })).body);
  t.is((await call(owner, 'GET', '/dashboard/v1/api_keys')).status, 200);
  t.is((await call(owner, 'POST', `/dashboard/v1/api_keys/${apiKey.id}/revoke`)).status, 200);
  const publicKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
  t.is((await call(owner, 'POST', '/dashboard/v1/signing_keys', { public_key: publicKey })).status, 201);
  t.is((await call(owner, 'GET', '/dashboard/v1/signing_keys')).status, 200);

  // Payout methods.
  const destination = { type: 'simulated', currency: 'THB', account_holder: 'Doc Shop', bank_code: '004', account_number: '1234567890' };
  const payout = apiObjectAt((await call(owner, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...destination, code: code() })).body);
  t.is((await call(owner, 'POST', `/dashboard/v1/payout_methods/${payout.id}/default?mode=test`, { code: code() })).status, 200);
  t.is((await call(owner, 'GET', '/dashboard/v1/payout_methods?mode=test')).status, 200);

  // Webhook endpoints and the delivery log.
  const endpoint = apiObjectAt(
    (await call(owner, 'POST', '/dashboard/v1/webhook_endpoints?mode=test', { url: `https://hooks-${unique()}.example.com/in` })).body,
  );
  const created = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: unique(), payload: createBody() });
  await t0.request({ method: 'POST', url: `/v1/payment_intents/${textAt(created.result, 'id')}/cancel`, key: shop.testKey, idempotencyKey: unique() });
  t.is((await call(owner, 'PATCH', `/dashboard/v1/webhook_endpoints/${endpoint.id}`, { description: 'docs' })).status, 200);
  t.is((await call(owner, 'GET', '/dashboard/v1/webhook_endpoints?mode=test')).status, 200);
  const deliveries = apiObjectsAt((await call(owner, 'GET', `/dashboard/v1/webhook_deliveries?endpoint=${endpoint.id}`)).body, 'data');
  t.true(deliveries.length > 0);
  t.is((await call(owner, 'GET', '/dashboard/v1/webhook_deliveries')).status, 200);
  t.is((await call(owner, 'POST', `/dashboard/v1/webhook_deliveries/${deliveries[0].id}/resend?mode=test`)).status, 202);
  t.is((await call(owner, 'DELETE', `/dashboard/v1/webhook_endpoints/${endpoint.id}`)).status, 200);

  // Balance transactions (none yet in this shop's live mode).
  t.is((await call(owner, 'GET', '/dashboard/v1/balance_transactions?mode=test&type=payment')).status, 200);
  t.is((await call(owner, 'GET', '/dashboard/v1/balance_transactions/txn_1?mode=live')).status, 404);

  // CSV downloads, with their byte order mark, and a page parameter's JSON error.
  t.is((await call(owner, 'GET', '/dashboard/v1/exports/payment_intents.csv?mode=test&status=canceled')).status, 200);
  t.is((await call(owner, 'GET', '/dashboard/v1/exports/settlements.csv?mode=test')).status, 200);
  t.is((await call(owner, 'GET', '/dashboard/v1/exports/balance_transactions.csv?mode=test&type=payment')).status, 200);
  t.is((await call(owner, 'GET', '/dashboard/v1/exports/balance_transactions.csv?mode=test&limit=5')).status, 400);

  // A role without the right, and sign-out.
  const viewer = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  t.is((await call(viewer, 'POST', '/dashboard/v1/api_keys', { mode: 'test' })).status, 403);
  t.is((await call(viewer, 'DELETE', '/dashboard/v1/session')).status, 204);

  const successes = [...validator.seen].filter((seen) => / 2\d\d$/.test(seen)).length;
  t.true(successes >= 20, `${successes} success answers checked`);
});
