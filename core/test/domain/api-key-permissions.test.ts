import test from 'ava';
import {
  apiKeyPrefixFor,
  grantedPermissions,
  modeOfSecret,
  permits,
  requirePermission,
  validateApiKeyPermissions,
} from '../../src/merchants/domain/api-key.entity';
import { authorizeKeyMint, permissionBeyondRole } from '../../src/dashboard/domain/api-key-limits';

const TAIL = 'A'.repeat(32);

test('secret and restricted keys: sk_ and rk_ of each mode, the same length of prefix', (t) => {
  t.is(apiKeyPrefixFor('test'), 'sk_test_');
  t.is(apiKeyPrefixFor('live', 'restricted'), 'rk_live_');
  t.is(modeOfSecret(`rk_live_${TAIL}`), 'live');
  t.is(modeOfSecret(`rk_test_${TAIL}`), 'test');
  t.is(modeOfSecret(`sk_live_${TAIL}`), 'live');
  for (const secret of [`pk_test_${TAIL}`, `rk_prod_${TAIL}`, 'rk_test_short', `xrk_test_${TAIL}`]) t.is(modeOfSecret(secret), undefined, secret);
});

test('write includes read; a resource left out is closed; an unrestricted key has every permission', (t) => {
  const permissions = { payment_intents: 'write', balance: 'read' } as const;
  t.true(permits(permissions, 'payment_intents:read'));
  t.true(permits(permissions, 'payment_intents:write'));
  t.true(permits(permissions, 'balance:read'));
  t.false(permits(permissions, 'balance:write'));
  t.false(permits(permissions, 'refunds:read'));
  t.true(permits(undefined, 'settlements:write'));
  t.like(
    t.throws(() => requirePermission(permissions, 'refunds:write')),
    {
      code: 'insufficient_permissions',
      category: 'forbidden',
      message: 'This key lacks the permission refunds:write.',
      param: 'refunds:write',
    },
  );
  t.deepEqual(grantedPermissions(permissions), ['payment_intents:read', 'payment_intents:write', 'balance:read']);
});

test('permissions are checked and put in the order of the resources', (t) => {
  t.deepEqual(Object.entries(validateApiKeyPermissions({ events: 'read', refunds: 'write' })), [
    ['refunds', 'write'],
    ['events', 'read'],
  ]);
  for (const [input, param] of [
    [{}, 'permissions'],
    [null, 'permissions'],
    [['refunds'], 'permissions'],
    [{ payouts: 'read' }, 'permissions.payouts'],
    [{ refunds: 'all' }, 'permissions.refunds'],
  ] as const) {
    t.like(
      t.throws(() => validateApiKeyPermissions(input)),
      { code: 'invalid_parameter', param },
      JSON.stringify(input),
    );
  }
});

test('a live key cannot exceed its maker: a developer mints no live secret key and no live refunds, settlements or disputes write; test keys are free', (t) => {
  t.is(permissionBeyondRole('developer', undefined), 'refunds:write');
  t.like(
    t.throws(() => authorizeKeyMint('developer', 'live', undefined)),
    { code: 'insufficient_permissions', param: 'permissions' },
  );
  for (const resource of ['refunds', 'settlements', 'disputes'] as const) {
    t.like(
      t.throws(() => authorizeKeyMint('developer', 'live', { payment_intents: 'write', [resource]: 'write' })),
      {
        code: 'insufficient_permissions',
        param: `permissions.${resource}`,
        message: `The developer role may not give a live key the permission ${resource}:write.`,
      },
    );
  }
  t.notThrows(() =>
    authorizeKeyMint('developer', 'live', {
      payment_intents: 'write',
      refunds: 'read',
      disputes: 'read',
      settlements: 'read',
      balance: 'write',
      events: 'write',
      webhook_public_keys: 'write',
    }),
  );
  t.notThrows(() => authorizeKeyMint('developer', 'test', undefined));
  t.notThrows(() => authorizeKeyMint('developer', 'test', { refunds: 'write', settlements: 'write' }));
  for (const role of ['owner', 'admin'] as const) {
    t.notThrows(() => authorizeKeyMint(role, 'live', undefined));
    t.notThrows(() => authorizeKeyMint(role, 'live', { refunds: 'write', settlements: 'write', disputes: 'write' }));
  }
});
