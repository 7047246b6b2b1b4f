import { createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';

interface Platform {
  publicKeys?: Record<string, string>;
  account?: string;
  livemode?: boolean;
}
type Verify = (header: string, rawBody: Buffer, secretHex: string | undefined, platform?: Platform, now?: number) => boolean;

const REPO_ROOT = join(__dirname, '..', '..', '..');

/** The README's "Verifying a webhook" block, evaluated as it stands. */
function readmeVerifier(): Verify {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = /<!-- verify-snippet:start -->([\s\S]*?)<!-- verify-snippet:end -->/.exec(readme)?.[1] ?? '';
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (code === undefined) throw new Error('README has no verify snippet between its markers');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-type-assertion -- runs the README's JavaScript as a reader pastes it
  return new Function('require', `${code}\nreturn verifyWebhook;`)(require) as Verify;
}

const verifyWebhook = readmeVerifier();
const secretHex = randomBytes(32).toString('hex');
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const publicKeyB64 = (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(12).toString('base64');
const body = Buffer.from(
  '{"id":"evt_ABC","type":"payment_intent.succeeded","created":"2026-01-01T00:00:00Z","livemode":false,"data":{"id":"pi_1","object":"payment_intent","status":"succeeded","merchant":"mch_1","mode":"test"}}',
);
const t = 1_780_000_000;

function signatureHeader(options: { t?: number; body?: Buffer; v1?: boolean; v2?: boolean; extra?: string } = {}): string {
  const at = options.t ?? t;
  const message = Buffer.concat([Buffer.from(`${at}.`), options.body ?? body]);
  const parts = [`t=${at}`];
  if (options.v1 !== false) parts.push(`v1=${createHmac('sha256', Buffer.from(secretHex, 'hex')).update(message).digest('hex')}`);
  if (options.v2 !== false) parts.push(`v2=${sign(null, message, privateKey).toString('base64')}`);
  parts.push('v1_kid=1', 'v2_kid=whk_1');
  if (options.extra) parts.push(options.extra);
  return parts.join(',');
}

test('the README snippet accepts v1 alone, v2 alone and both, ignoring unknown fields', (t_) => {
  const keys: Platform = { publicKeys: { whk_1: publicKeyB64 }, account: 'mch_1', livemode: false };
  t_.true(verifyWebhook(signatureHeader(), body, secretHex, keys, t));
  t_.true(verifyWebhook(signatureHeader({ v2: false }), body, secretHex, {}, t), 'v1 with the endpoint secret');
  t_.true(verifyWebhook(signatureHeader({ v1: false }), body, undefined, keys, t), 'v2 with the platform key');
  t_.true(verifyWebhook(signatureHeader({ extra: 'v3=whatever,foo=bar' }), body, secretHex, keys, t));
});

test('the README snippet refuses a changed body, a wrong secret or key, and a timestamp outside 300 s', (t_) => {
  const keys: Platform = { publicKeys: { whk_1: publicKeyB64 }, account: 'mch_1', livemode: false };
  const tampered = Buffer.from(body.toString().replace('succeeded', 'failed'));
  t_.false(verifyWebhook(signatureHeader(), tampered, secretHex, keys, t));
  t_.false(verifyWebhook(signatureHeader({ v2: false }), body, randomBytes(32).toString('hex'), keys, t));
  const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }) as Buffer;
  t_.false(verifyWebhook(signatureHeader({ v1: false }), body, undefined, { ...keys, publicKeys: { whk_1: other.subarray(12).toString('base64') } }, t));
  t_.false(
    verifyWebhook(signatureHeader({ v1: false }), body, undefined, { ...keys, publicKeys: { other_key: publicKeyB64 } }, t),
    'v2_kid names an unknown key',
  );
  t_.true(verifyWebhook(signatureHeader(), body, secretHex, keys, t + 300));
  t_.true(verifyWebhook(signatureHeader(), body, secretHex, keys, t - 300));
  t_.false(verifyWebhook(signatureHeader(), body, secretHex, keys, t + 301));
  t_.false(verifyWebhook(signatureHeader(), body, secretHex, keys, t - 301));
  t_.false(verifyWebhook('v1=00,v2=00', body, secretHex, keys, t), 'no t');
  t_.false(verifyWebhook(signatureHeader().replace(/v1=[0-9a-f]+/, 'v1=abcd'), body, secretHex, {}, t), 'a short v1');
});

test("the README snippet refuses by v2 another merchant's or the other mode's delivery (the platform key signs them all), and a v2 check without an account", (t_) => {
  const keys: Platform = { publicKeys: { whk_1: publicKeyB64 }, account: 'mch_1', livemode: false };
  const v2Only = (payload: Buffer) => signatureHeader({ v1: false, body: payload });
  t_.true(verifyWebhook(v2Only(body), body, undefined, keys, t));
  t_.false(verifyWebhook(v2Only(body), body, undefined, { ...keys, account: 'mch_2' }, t), "another merchant's delivery");
  t_.false(verifyWebhook(v2Only(body), body, undefined, { ...keys, livemode: true }, t), "the test endpoint's delivery at a live handler");
  t_.false(verifyWebhook(v2Only(body), body, undefined, { publicKeys: keys.publicKeys }, t), 'no account to check against');
  // The endpoint secret is the endpoint's own: v1 needs no such check.
  t_.true(verifyWebhook(signatureHeader({ v2: false }), body, secretHex, { ...keys, account: 'mch_2' }, t));
});
