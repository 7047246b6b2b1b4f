import test from 'ava';
import { jsonAt, keysAt, listAt, textAt } from '../fixtures';
import { createMerchantWithAdmin, runAdmin, serviceEnvironment, startService, type ServiceEnvironment } from './process';

let environment: ServiceEnvironment;
test.before(async () => {
  environment = await serviceEnvironment();
});
test.after.always(async () => environment?.cleanup());

test('platform-keys rotate publishes a key at once, active after PAYMENTS_KEY_ACTIVATION_S; list and the API show public halves only', async (t) => {
  const env = { ...environment.env, PAYMENTS_KEY_ACTIVATION_S: '120' };
  const key = (await createMerchantWithAdmin(env, { name: 'Keys' })).testApiKey;

  const first = await runAdmin(env, ['platform-keys', 'list']);
  t.is(first.code, 0, first.stderr);
  const genesis = jsonAt(JSON.parse(first.stdout), 'platform_keys', 0);
  t.regex(textAt(genesis, 'id'), /^key_[A-Z2-7]+$/);
  t.is(textAt(genesis, 'published_at'), textAt(genesis, 'active_from'), 'the first key signs at once');

  const rotated = await runAdmin(env, ['platform-keys', 'rotate']);
  t.is(rotated.code, 0, rotated.stderr);
  const fresh = jsonAt(JSON.parse(rotated.stdout), 'platform_key');
  t.is(new Date(textAt(fresh, 'active_from')).getTime() - new Date(textAt(fresh, 'published_at')).getTime(), 120_000);
  t.is(Buffer.from(textAt(fresh, 'public_key'), 'base64').length, 32);

  const listed = await runAdmin(env, ['platform-keys', 'list']);
  const keys = listAt(JSON.parse(listed.stdout), 'platform_keys');
  t.deepEqual(
    keys.map((k) => textAt(k, 'id')),
    [textAt(genesis, 'id'), textAt(fresh, 'id')],
  );
  t.false(/private|sealed/i.test(listed.stdout));
  t.deepEqual(keysAt(keys, 0).sort(), ['active_from', 'algorithm', 'created', 'id', 'public_key', 'published_at']);

  const api = await startService(env, 'apps/api/dist/src/main.js', []);
  try {
    const res = await fetch(`${api.baseUrl}/v1/webhook_public_keys`, { headers: { authorization: `Bearer ${key}` } });
    const body: unknown = await res.json();
    t.is(res.status, 200);
    t.deepEqual(body, {
      object: 'list',
      data: keys.map((k) => ({ id: textAt(k, 'id'), object: 'webhook_public_key', algorithm: 'ed25519', public_key: textAt(k, 'public_key') })),
      has_more: false,
    });
  } finally {
    await api.stop();
  }
});
