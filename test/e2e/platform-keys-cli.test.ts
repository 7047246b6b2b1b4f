import test from 'ava';
import { runAdmin, serviceEnvironment, startService, type ServiceEnvironment } from './process';

let environment: ServiceEnvironment;
test.before(async () => {
  environment = await serviceEnvironment();
});
test.after.always(async () => environment?.cleanup());

interface CliKey {
  id: string;
  algorithm: string;
  public_key: string;
  published_at: string;
  active_from: string;
}

test('platform-keys rotate publishes a key at once, active after PAYMENTS_KEY_ACTIVATION_S; list and the API show public halves only', async (t) => {
  const env = { ...environment.env, PAYMENTS_KEY_ACTIVATION_S: '120' };
  const admin = await runAdmin(env, ['merchant', 'create', '--name', 'Keys', '--email', `keys-${Date.now()}@example.com`, '--password', 'a long enough password']);
  t.is(admin.code, 0, admin.stderr);
  const key = (JSON.parse(admin.stdout) as { test_api_key: string }).test_api_key;

  const first = await runAdmin(env, ['platform-keys', 'list']);
  t.is(first.code, 0, first.stderr);
  const [genesis] = (JSON.parse(first.stdout) as { platform_keys: CliKey[] }).platform_keys;
  t.regex(genesis.id, /^key_[A-Z2-7]+$/);
  t.is(genesis.published_at, genesis.active_from, 'the first key signs at once');

  const rotated = await runAdmin(env, ['platform-keys', 'rotate']);
  t.is(rotated.code, 0, rotated.stderr);
  const fresh = (JSON.parse(rotated.stdout) as { platform_key: CliKey }).platform_key;
  t.is(new Date(fresh.active_from).getTime() - new Date(fresh.published_at).getTime(), 120_000);
  t.is(Buffer.from(fresh.public_key, 'base64').length, 32);

  const listed = await runAdmin(env, ['platform-keys', 'list']);
  const keys = (JSON.parse(listed.stdout) as { platform_keys: CliKey[] }).platform_keys;
  t.deepEqual(keys.map((k) => k.id), [genesis.id, fresh.id]);
  t.false(/private|sealed/i.test(listed.stdout));
  t.deepEqual(Object.keys(keys[0]).sort(), ['active_from', 'algorithm', 'created', 'id', 'public_key', 'published_at']);

  const api = await startService(env, 'apps/api/dist/src/main.js', []);
  try {
    const res = await fetch(`${api.baseUrl}/v1/webhook_public_keys`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { object: string; data: Array<{ id: string; object: string; algorithm: string; public_key: string }>; has_more: boolean };
    t.is(res.status, 200);
    t.deepEqual(body, {
      object: 'list',
      data: keys.map((k) => ({ id: k.id, object: 'webhook_public_key', algorithm: 'ed25519', public_key: k.public_key })),
      has_more: false,
    });
  } finally {
    await api.stop();
  }
});
