import test from 'ava';
import { mayPerform, USER_ROLES, type DashboardAction } from '@payments/core';
import { asUser, signIn } from './helpers/dashboard';
import { jsonAt, listAt } from './helpers/json';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

let t0: TestApp;
let shop: TestMerchant;
withAppAndMerchant({}, (started) => ({ t0, shop } = started));

interface DashboardRoute {
  readonly method: string;
  readonly path: string;
  readonly action: DashboardAction;
}

/** Every route the server has that the role table governs: the ones whose action is not `open`. */
function governedRoutes(): DashboardRoute[] {
  return (
    t0.server
      .table()
      .map((route) => ({
        method: route.method.toUpperCase(),
        path: route.path,
        action: route.settings.plugins?.dashboard?.action,
      }))
      .filter((route): route is DashboardRoute => route.action !== undefined && route.action !== 'open')
      // Signing out ends the session the rest uses: last.
      .sort((a, b) => Number(a.method === 'DELETE' && a.path === '/dashboard/v1/session') - Number(b.method === 'DELETE' && b.path === '/dashboard/v1/session'))
  );
}

/** A plausible call: unknown ids, an empty body, test mode. 400, 404 and 409 all mean "past the table". */
function plausibleRequest(route: DashboardRoute): { method: string; url: string; payload?: unknown } {
  const path = route.path.replace(/\{(\w+)\??\}/g, (_, name: string) => (name === 'id' ? 'usr_0000000000000000unknown' : 'unknown'));
  return { method: route.method, url: `${path}?mode=test`, ...(['POST', 'PATCH', 'PUT'].includes(route.method) ? { payload: {} } : {}) };
}

test('the table covers every dashboard route the server has, and the auth slice is among them', (t) => {
  const routes = governedRoutes();
  const auth = [
    'GET /dashboard/v1/session',
    'DELETE /dashboard/v1/session',
    'GET /dashboard/v1/users',
    'POST /dashboard/v1/users',
    'PATCH /dashboard/v1/users/{id}',
    'POST /dashboard/v1/users/{id}/mfa',
  ];
  for (const route of auth)
    t.true(
      routes.some((r) => `${r.method} ${r.path}` === route),
      route,
    );
  // No dashboard route slips through without an action (it would be neither open nor governed).
  for (const route of t0.server.table().filter((r) => r.path.startsWith('/dashboard/v1/'))) {
    const action = route.settings.plugins?.dashboard?.action;
    t.truthy(action, `${route.method} ${route.path} declares an action`);
  }
  const open = t0.server.table().filter((r) => r.settings.plugins?.dashboard?.action === 'open');
  t.deepEqual(open.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort(), ['POST /dashboard/v1/mfa', 'POST /dashboard/v1/session']);
});

for (const role of USER_ROLES) {
  test(`the ${role} role's session lists exactly the actions the table lets it perform`, async (t) => {
    const user = await signIn(t0, { merchantId: shop.id, role });
    const res = await asUser(t0, user, { method: 'GET', url: '/dashboard/v1/session' });
    t.is(res.statusCode, 200);
    const expected = governedRoutes()
      .map((route) => route.action)
      .filter((action) => mayPerform(role, action));
    const permissions = listAt(res.result, 'permissions');
    for (const action of expected) t.true(permissions.includes(action), `${role} may ${action}`);
    // Nothing more: every listed action is one a route of the table lets this role perform.
    const allowed = new Set<unknown>(expected);
    for (const action of permissions) t.true(allowed.has(action), `${role} lists ${String(action)}`);
  });

  test(`the ${role} role gets 403 forbidden exactly where the table says no`, async (t) => {
    const user = await signIn(t0, { merchantId: shop.id, role });
    const routes = governedRoutes();
    t.true(routes.length >= 6);
    for (const route of routes) {
      const res = await asUser(t0, user, plausibleRequest(route));
      const label = `${role} ${route.method} ${route.path} (${route.action}) answered ${res.statusCode} ${res.payload}`;
      const code = jsonAt(res.result, 'error', 'code');
      if (mayPerform(role, route.action)) {
        t.false(res.statusCode === 403 && code === 'forbidden', label);
        t.not(res.statusCode, 401, label);
        t.true(res.statusCode < 500, label);
      } else {
        t.is(res.statusCode, 403, label);
        t.is(code, 'forbidden', label);
      }
    }
  });
}

test('without a session every governed route is 401, before the table or validation', async (t) => {
  for (const route of governedRoutes()) {
    const res = await t0.request({ ...plausibleRequest(route), headers: { authorization: `Bearer ${shop.testKey}` } });
    t.is(res.statusCode, 401, `${route.method} ${route.path}`);
    t.like(res.result, { error: { code: 'authentication_required' } });
  }
});
