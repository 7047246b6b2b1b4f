import { execFile } from 'node:child_process';
import { createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { promisify } from 'node:util';
import { HttpWebhookSender } from '@payments/webhook-http';
import test from 'ava';
import { textAt } from '../fixtures';
import { verifyStandardWebhook, verifyStandardWebhookEd25519, standardWebhooksSecret } from './standard-webhooks';
import { startWebhookReceiver } from './webhook-receiver';

test('the receiver records what the real sender posts over TLS, answers a scripted sequence, and the Standard Webhooks helper verifies it', async (t) => {
  const receiver = await startWebhookReceiver({ statuses: [500, 410] });
  t.teardown(() => receiver.close());
  t.regex(receiver.url, /^https:\/\/hooks\.test\.example:\d+\/webhooks$/);
  t.deepEqual(receiver.env, {
    NODE_EXTRA_CA_CERTS: receiver.caFile,
    PAYMENTS_EGRESS_ALLOW: '127.0.0.1',
    PAYMENTS_DNS_OVERRIDES: 'hooks.test.example=127.0.0.1',
  });
  const sender = new HttpWebhookSender(receiver.senderOptions);

  const secretHex = randomBytes(32).toString('hex');
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicKeyB64 = (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(12).toString('base64');
  const body = '{"id":"evt_RECEIVER","type":"settlement.paid","data":{"amount":1000,"note":"ünïcode"}}';
  const id = 'evt_RECEIVER';
  const ts = String(Math.floor(Date.now() / 1000));
  const message = Buffer.from(`${id}.${ts}.${body}`);
  const v1 = createHmac('sha256', Buffer.from(secretHex, 'hex')).update(message).digest('base64');
  const v1a = sign(null, message, privateKey).toString('base64');
  const headers = { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${v1} v1a,${v1a}` };

  const statuses = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await sender.send({ url: receiver.url, body, headers, timeoutMs: 10_000 })).status);
  t.deepEqual(statuses, [500, 410, 200]);
  const requests = await receiver.waitFor(3);
  t.deepEqual(
    requests.map((r) => r.answeredStatus),
    [500, 410, 200],
  );
  const first = requests[0];
  if (first === undefined) return t.fail();
  t.is(first.servername, 'hooks.test.example');
  t.is(first.path, '/webhooks');
  t.is(first.rawBody.toString('utf8'), body);
  t.deepEqual(verifyStandardWebhook(first, secretHex), JSON.parse(body));
  t.true(verifyStandardWebhookEd25519(first, publicKeyB64));
  t.false(
    verifyStandardWebhookEd25519(
      first,
      (generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(12).toString('base64'),
    ),
  );
  t.throws(() => verifyStandardWebhook(first, randomBytes(32).toString('hex')));
  t.throws(() => verifyStandardWebhook(first, secretHex, new Date(Date.now() + 301_000)), { message: /timestamp/i });
  t.notThrows(() => verifyStandardWebhook(first, secretHex, new Date(Date.now() + 200_000)));
  t.is(standardWebhooksSecret('00'.repeat(32)), `whsec_${Buffer.alloc(32).toString('base64')}`);

  receiver.script([503]);
  const again = await sender.send({ url: receiver.url, body, headers, timeoutMs: 10_000 });
  t.is(again.status, 503);
  await t.throwsAsync(receiver.waitFor(10, 50), { message: /4 of 10/ });
});

test('a process started with receiver.env reaches the receiver through NODE_EXTRA_CA_CERTS, with no ca option', async (t) => {
  const receiver = await startWebhookReceiver({ hostname: 'relay.test.example', statuses: [202] });
  t.teardown(() => receiver.close());
  const script = `
    const { HttpWebhookSender } = require('@payments/webhook-http');
    const sender = new HttpWebhookSender({
      egressAllow: process.env.PAYMENTS_EGRESS_ALLOW.split(','),
      dnsOverrides: Object.fromEntries(process.env.PAYMENTS_DNS_OVERRIDES.split(',').map((e) => e.split('='))),
    });
    sender.send({ url: process.argv[1], body: '{}', headers: {}, timeoutMs: 10000 }).then((r) => process.stdout.write(JSON.stringify(r)));
  `;
  const run = promisify(execFile);
  const { stdout: output } = await run(process.execPath, ['-e', script, receiver.url], { env: { ...process.env, ...receiver.env }, cwd: __dirname });
  t.like(JSON.parse(output), { status: 202 });
  t.is(receiver.requests[0]?.servername, 'relay.test.example');
  // Without the extra CA the same call is a TLS refusal.
  const env = { ...process.env, ...receiver.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const { stdout: refused } = await run(process.execPath, ['-e', script, receiver.url], { env, cwd: __dirname });
  t.regex(textAt(JSON.parse(refused), 'error'), /^TLS certificate refused/);
});
