import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Payments, SIGNATURE_HEADER, SignatureVerificationError, type Event } from '@payments/sdk';
import { nextPollDelay } from '../src/commands/listen.js';

/*
 * `payments listen` against a stand-in API whose event list the test controls: how often it
 * polls when nothing happens and once events come, and what a forwarded event carries.
 */

const MAIN = join(__dirname, '..', 'src', 'main.js');

test('the poll delay: the shortest while events come, growing by half per empty poll, capped', (t) => {
  const intervals = { min: 1000, max: 5000 };
  const delays: number[] = [];
  let delay: number | undefined;
  for (let i = 0; i < 7; i += 1) delays.push((delay = nextPollDelay(delay, false, intervals)));
  t.deepEqual(delays, [1000, 1500, 2250, 3375, 5000, 5000, 5000]);
  t.is(nextPollDelay(5000, true, intervals), 1000, 'back to quick as soon as a poll finds events');
});

interface Stand {
  url: string;
  server: Server;
}

function serve(handler: (path: string, headers: IncomingHttpHeaders, body: string) => { status: number; body: unknown }): Promise<Stand> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const answer = handler(request.url ?? '/', request.headers, body);
      response.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_stand' }).end(JSON.stringify(answer.body));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
    }),
  );
}

const event = (id: string): Event => ({
  id,
  type: 'payment_intent.succeeded',
  created: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  livemode: false,
  data: { id: 'pi_1', object: 'payment_intent', status: 'succeeded', merchant: 'mch_1', mode: 'test' },
});

test('idle, listen polls less and less often; an event makes it quick again; what it forwards verifies v1 and v2', async (t) => {
  const events: Event[] = [];
  const polls: number[] = [];
  const api = await serve((path) => {
    if (!path.startsWith('/v1/events')) return { status: 404, body: { error: { code: 'resource_not_found', message: 'no' } } };
    if (path.includes('limit=100')) polls.push(Date.now());
    return { status: 200, body: { object: 'list', data: [...events].reverse(), has_more: false } };
  });
  const deliveries: Array<{ headers: IncomingHttpHeaders; body: string; at: number }> = [];
  const receiver = await serve((_path, headers, body) => {
    deliveries.push({ headers, body, at: Date.now() });
    return { status: 200, body: {} };
  });
  const child = spawn(
    process.execPath,
    [MAIN, 'listen', '--forward-to', `${receiver.url}/hooks`, '--interval', '50ms', '--max-interval', '400ms', '--keys-port', '0'],
    {
      env: {
        PATH: process.env.PATH,
        PAYMENTS_API_BASE: api.url,
        PAYMENTS_API_KEY: 'sk_test_standin000000000000',
        PAYMENTS_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'payments-listen-')), 'config'),
      },
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    await until(
      () => stderr.includes('Ctrl-C to stop'),
      () => stderr,
    );
    await new Promise((r) => setTimeout(r, 2500));
    const idle = gaps(polls);
    // Without backoff 2.5 s of 50 ms polls would be about 50.
    t.true(idle.length >= 5 && idle.length <= 14, `${idle.length} polls: ${idle.join(', ')}`);
    t.true((idle.at(-1) ?? 0) >= 350, `idle gaps grow to the maximum: ${idle.join(', ')}`);
    t.true((idle[0] ?? Infinity) < 150);

    events.push(event('evt_AAAAAAAAAAAAAAAAAAAAAAAAAA'));
    await until(
      () => deliveries.length === 1,
      () => stderr,
    );
    const delivered = deliveries[0]?.at ?? 0;
    await until(
      () => polls.filter((at) => at > delivered).length >= 2,
      () => stderr,
    );
    const [next = 0, after = 0] = polls.filter((at) => at > delivered);
    t.true(after - next < 200, `after an event the polls are quick again: ${after - next} ms`);

    // The delivery verifies as the service's would: v1 with the secret, v2 with the key listen serves.
    const secret = /Webhook signing secret: ([0-9a-f]{64})/.exec(stderr)?.[1] ?? '';
    const keys = /served at (http:\/\/127\.0\.0\.1:\d+)\/v1\/webhook_public_keys/.exec(stderr)?.[1] ?? '';
    const { headers, body } = deliveries[0] ?? { headers: {}, body: '' };
    const header = String(headers[SIGNATURE_HEADER]);
    const sdk = new Payments('sk_test_verifier00000000000', { baseUrl: keys });
    t.is(sdk.webhooks.constructEvent(body, header, { secret }).id, 'evt_AAAAAAAAAAAAAAAAAAAAAAAAAA');
    t.is((await sdk.webhooks.constructEventAsync(body, header)).id, 'evt_AAAAAAAAAAAAAAAAAAAAAAAAAA');
    // v2 also binds the merchant and mode, as with the service's deliveries: the key server serves the forwarded event back to learn them.
    const stranger = new Payments('sk_test_verifier00000000000', { baseUrl: keys, account: 'mch_OTHER' });
    await t.throwsAsync(stranger.webhooks.constructEventAsync(body, header), { instanceOf: SignatureVerificationError, message: /merchant mch_1/ });
    t.regex(header, /^t=\d+,v1=[0-9a-f]{64},v1_kid=1,v2=[A-Za-z0-9+/=]+,v2_kid=key_LISTEN[A-Z2-7]{20}$/);
    t.like(headers, { 'webhook-id': 'evt_AAAAAAAAAAAAAAAAAAAAAAAAAA', 'webhook-timestamp': /t=(\d+)/.exec(header)?.[1] });
    t.regex(String(headers['webhook-signature']), /^v1,[A-Za-z0-9+/=]+ v1a,[A-Za-z0-9+/=]+$/);
  } finally {
    child.kill('SIGINT');
    t.is(await exited, 130, stderr);
    api.server.close();
    receiver.server.close();
  }
});

/** The time between consecutive entries. */
function gaps(times: number[]): number[] {
  return times.slice(1).map((at, index) => at - (times[index] ?? at));
}

async function until(condition: () => boolean, context: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out:\n${context()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
