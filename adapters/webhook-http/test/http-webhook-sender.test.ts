import test from 'ava';
import { HttpWebhookSender } from '../src';
import { EgressGuard } from '../src/egress-guard';
import { closedPort, selfSignedCertificate, startHttpReceiver, startHttpsReceiver, type Receiver } from './receivers';

const request = (url: string, extra: Partial<{ body: string; headers: Record<string, string>; timeoutMs: number }> = {}) => ({
  url,
  body: extra.body ?? '{"id":"evt_TEST","type":"payment_intent.succeeded"}',
  headers: extra.headers ?? { 'X-Webhook-Signature': 't=1,v1=00' },
  timeoutMs: extra.timeoutMs ?? 10_000,
});

const REFUSED = [
  '127.0.0.1',
  '127.1.2.3',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '255.255.255.255',
  '224.0.0.1',
  '192.0.2.1',
  '240.0.0.1',
  '::1',
  '::',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:a9fe:a9fe',
  '::ffff:192.168.0.1',
  '::127.0.0.1',
  '::7f00:1',
  '64:ff9b::a00:1',
  '2001:db8::1',
];

test('the guard passes public unicast addresses and refuses every other range', (t) => {
  const guard = new EgressGuard();
  for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    t.is(guard.refusal(address), undefined, address);
  }
  for (const address of REFUSED) t.not(guard.refusal(address), undefined, address);
  t.is(guard.refusal('not-an-ip'), 'not an IP address');
  const allowing = new EgressGuard(['127.0.0.1', '::1']);
  t.is(allowing.refusal('127.0.0.1'), undefined);
  t.is(allowing.refusal('::ffff:127.0.0.1'), undefined, 'an allow-listed address in another notation');
  t.is(allowing.refusal('0:0:0:0:0:0:0:1'), undefined);
  t.not(allowing.refusal('127.0.0.2'), undefined, 'the allow-list is exact addresses, not ranges');
});

test('every refused range is refused with nothing sent, by literal and by a name that resolves to it', async (t) => {
  const receiver = await startHttpReceiver();
  t.teardown(() => receiver.close());
  for (const address of REFUSED) {
    const overrides = { 'hook.test.example': address };
    const sender = new HttpWebhookSender({ dnsOverrides: overrides });
    const literal = address.includes(':') ? `[${address}]` : address;
    for (const url of [
      `https://hook.test.example:${receiver.port}/hooks`,
      `https://${literal}:${receiver.port}/hooks`,
      `http://hook.test.example:${receiver.port}/`,
    ]) {
      const response = await sender.send(request(url));
      t.is(response.status, undefined, `${address} via ${url}`);
      t.regex(response.error ?? '', /^refused: .* non-public address/, `${address} via ${url}`);
      t.true(response.latencyMs < 1000);
    }
  }
  t.is(receiver.connections, 0, 'the receiver on 127.0.0.1 saw no connection');
  t.is(receiver.requests.length, 0);
});

test('a name with any refused address among its answers is refused, nothing sent', async (t) => {
  const receiver = await startHttpReceiver();
  t.teardown(() => receiver.close());
  const asked: string[] = [];
  const sender = new HttpWebhookSender({
    resolve: async (host) => {
      asked.push(host);
      return ['93.184.216.34', '127.0.0.1'];
    },
  });
  const response = await sender.send(request(`https://mixed.test.example:${receiver.port}/`));
  t.deepEqual(asked, ['mixed.test.example']);
  t.is(response.status, undefined);
  t.regex(response.error ?? '', /refused: mixed\.test\.example resolves to a non-public address \(loopback\)/);
  t.is(receiver.connections, 0);
});

test('DNS failure, a bad URL and another scheme are answers, not exceptions', async (t) => {
  const sender = new HttpWebhookSender({
    resolve: async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    },
  });
  t.like(await sender.send(request('https://nowhere.test.example/')), { status: undefined, error: 'DNS lookup of nowhere.test.example failed (ENOTFOUND)' });
  t.like(await sender.send(request('not a url')), { status: undefined, error: 'the endpoint URL is not a valid URL' });
  t.like(await sender.send(request('ftp://files.example.com/')), { status: undefined, error: 'scheme ftp: is refused; https only' });
  t.like(await sender.send(request('https://user:pw@hooks.example.com/')), { status: undefined, error: 'credentials in the endpoint URL are refused' });
});

test('plain http goes only to allow-listed addresses', async (t) => {
  const sender = new HttpWebhookSender({ dnsOverrides: { 'public.test.example': '93.184.216.34' } });
  const response = await sender.send(request('http://public.test.example/hooks'));
  t.like(response, { status: undefined, error: 'plain http is refused; https only' });
  t.true(response.latencyMs < 1000, 'refused before any connection');
});

async function allowedHttp(handler?: Parameters<typeof startHttpReceiver>[0]): Promise<{ receiver: Receiver; sender: HttpWebhookSender; url: string }> {
  const receiver = await startHttpReceiver(handler);
  const sender = new HttpWebhookSender({ egressAllow: ['127.0.0.1'], dnsOverrides: { 'local.test.example': '127.0.0.1' } });
  return { receiver, sender, url: `http://local.test.example:${receiver.port}/hooks?x=1` };
}

test('statuses pass through with latency; the body and headers arrive as given; the answer body stays out of the error', async (t) => {
  const statuses = [200, 204, 404, 410, 500, 503];
  let next = 0;
  const { receiver, sender, url } = await allowedHttp((_req, res) => {
    const status = statuses[next++] ?? 500;
    res.writeHead(status, { 'content-type': 'text/plain' });
    if (status === 204) res.end();
    else res.end(`SECRET-BODY-${'x'.repeat(200_000)}`);
  });
  t.teardown(() => receiver.close());
  const body = '{"id":"evt_1","data":{"amount":100}}';
  for (const status of statuses) {
    const response = await sender.send(request(url, { body, headers: { 'X-Webhook-Signature': 't=1,v1=ab', 'webhook-id': 'evt_1', Host: 'evil.example' } }));
    t.is(response.status, status);
    t.true(typeof response.latencyMs === 'number' && response.latencyMs >= 0);
    if (status < 300) t.is(response.error, undefined);
    else {
      t.is(response.error, `endpoint answered ${status}`);
      t.false((response.error ?? '').includes('SECRET'));
    }
  }
  const first = receiver.requests[0];
  t.is(first?.method, 'POST');
  t.is(first?.url, '/hooks?x=1');
  t.is(first?.body, body);
  t.is(first?.headers['x-webhook-signature'], 't=1,v1=ab');
  t.is(first?.headers['webhook-id'], 'evt_1');
  t.is(first?.headers['content-type'], 'application/json; charset=utf-8');
  t.is(first?.headers['content-length'], String(Buffer.byteLength(body)));
  t.is(first?.headers.host, `local.test.example:${receiver.port}`, 'Host is the URL host, never a header the caller set');
});

test('a redirect is a non-2xx answer and is not followed, to a refused address or anywhere', async (t) => {
  const target = await startHttpReceiver();
  t.teardown(() => target.close());
  const locations = ['http://169.254.169.254/latest/meta-data/', `http://127.0.0.1:${target.port}/`];
  let next = 0;
  const { receiver, sender, url } = await allowedHttp((_req, res) => {
    res.writeHead(next % 2 === 0 ? 302 : 307, { location: locations[next++ % 2] ?? '/' }).end();
  });
  t.teardown(() => receiver.close());
  for (const status of [302, 307]) {
    const response = await sender.send(request(url));
    t.is(response.status, status);
    t.is(response.error, `endpoint answered ${status}; redirects are not followed`);
  }
  t.is(receiver.requests.length, 2);
  t.is(target.connections, 0, 'the redirect target was never contacted');
});

test('an endpoint that does not answer in time gives a timeout with no status', async (t) => {
  const { receiver, sender, url } = await allowedHttp(() => undefined);
  t.teardown(() => receiver.close());
  const response = await sender.send(request(url, { timeoutMs: 300 }));
  t.is(response.status, undefined);
  t.is(response.error, 'timed out after 300 ms');
  t.true(response.latencyMs >= 290 && response.latencyMs < 2000, String(response.latencyMs));
});

test('the timeout also covers a slow DNS answer', async (t) => {
  const sender = new HttpWebhookSender({ resolve: () => new Promise(() => undefined) });
  const response = await sender.send(request('https://slow-dns.test.example/', { timeoutMs: 200 }));
  t.like(response, { status: undefined, error: 'timed out after 200 ms' });
});

test('connection refused', async (t) => {
  const port = await closedPort();
  const sender = new HttpWebhookSender({ egressAllow: ['127.0.0.1'] });
  const response = await sender.send(request(`http://127.0.0.1:${port}/`));
  t.like(response, { status: undefined, error: 'connection refused (ECONNREFUSED)' });
});

test('TLS: SNI and Host carry the host name while the TCP connection goes to the pinned address', async (t) => {
  const tls = await selfSignedCertificate({ name: 'hooks.test.example' });
  const receiver = await startHttpsReceiver(tls, (_req, res) => {
    res.writeHead(201).end('created');
  });
  t.teardown(() => receiver.close());
  const sender = new HttpWebhookSender({ egressAllow: ['127.0.0.1'], dnsOverrides: { 'hooks.test.example': '127.0.0.1' }, ca: tls.cert });
  const response = await sender.send(request(`https://hooks.test.example:${receiver.port}/in`, { body: '{"a":1}' }));
  t.is(response.error, undefined);
  t.is(response.status, 201);
  const received = receiver.requests[0];
  t.is(received?.servername, 'hooks.test.example');
  t.is(received?.headers.host, `hooks.test.example:${receiver.port}`);
  t.is(received?.localAddress, '127.0.0.1');
  t.is(received?.body, '{"a":1}');
});

test('TLS: an untrusted certificate or another name is refused', async (t) => {
  const tls = await selfSignedCertificate({ name: 'hooks.test.example' });
  const receiver = await startHttpsReceiver(tls);
  t.teardown(() => receiver.close());
  const overrides = { 'hooks.test.example': '127.0.0.1', 'other.test.example': '127.0.0.1' };
  const untrusting = new HttpWebhookSender({ egressAllow: ['127.0.0.1'], dnsOverrides: overrides });
  const untrusted = await untrusting.send(request(`https://hooks.test.example:${receiver.port}/`));
  t.is(untrusted.status, undefined);
  t.regex(untrusted.error ?? '', /^TLS certificate refused/);
  const trusting = new HttpWebhookSender({ egressAllow: ['127.0.0.1'], dnsOverrides: overrides, ca: tls.cert });
  const otherName = await trusting.send(request(`https://other.test.example:${receiver.port}/`));
  t.like(otherName, { status: undefined, error: 'TLS certificate refused (ERR_TLS_CERT_ALTNAME_INVALID)' });
  t.is(receiver.requests.length, 0);
});

test('TLS: the one kept context still checks each connection: after a good send, another name is refused', async (t) => {
  const tls = await selfSignedCertificate({ name: 'hooks.test.example' });
  const receiver = await startHttpsReceiver(tls);
  t.teardown(() => receiver.close());
  const sender = new HttpWebhookSender({
    egressAllow: ['127.0.0.1'],
    dnsOverrides: { 'hooks.test.example': '127.0.0.1', 'other.test.example': '127.0.0.1' },
    ca: tls.cert,
  });
  t.is((await sender.send(request(`https://hooks.test.example:${receiver.port}/`))).status, 200);
  t.like(await sender.send(request(`https://other.test.example:${receiver.port}/`)), {
    status: undefined,
    error: 'TLS certificate refused (ERR_TLS_CERT_ALTNAME_INVALID)',
  });
  t.is((await sender.send(request(`https://hooks.test.example:${receiver.port}/`))).status, 200);
  t.is(receiver.requests.length, 2);
});

test('the allow-list is announced loudly and must hold IP addresses', (t) => {
  const warnings: string[] = [];
  new HttpWebhookSender({ egressAllow: ['127.0.0.1'], logger: { warn: (_fields, message) => warnings.push(message) } });
  t.is(warnings.length, 1);
  t.regex(warnings[0] ?? '', /PAYMENTS_EGRESS_ALLOW/);
  new HttpWebhookSender({ logger: { warn: (_fields, message) => warnings.push(message) } });
  t.is(warnings.length, 1);
  t.throws(() => new HttpWebhookSender({ egressAllow: ['localhost'] }));
  t.throws(() => new HttpWebhookSender({ dnsOverrides: { 'a.example': 'nope' } }));
});

test('an answer whose body never ends still counts with its status', async (t) => {
  const { receiver, sender, url } = await allowedHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial');
  });
  t.teardown(() => receiver.close());
  const quick = await sender.send(request(url, { timeoutMs: 5000 }));
  t.like(quick, { status: 200, error: undefined });
  t.true(quick.latencyMs < 2500, String(quick.latencyMs));
  const tight = await sender.send(request(url, { timeoutMs: 300 }));
  t.like(tight, { status: 200, error: undefined });
});

test('IPv6: an allow-listed ::1 receiver is reached through a pinned IPv6 address', async (t) => {
  let receiver: Receiver;
  try {
    receiver = await startHttpReceiver(undefined, '::1');
  } catch {
    t.pass('no IPv6 loopback on this machine');
    return;
  }
  t.teardown(() => receiver.close());
  const sender = new HttpWebhookSender({ egressAllow: ['::1'], dnsOverrides: { 'v6.test.example': '::1' } });
  t.like(await sender.send(request(`http://v6.test.example:${receiver.port}/`)), { status: 200 });
  t.like(await sender.send(request(`http://[::1]:${receiver.port}/`)), { status: 200 });
  t.is(receiver.requests[0]?.headers.host, `v6.test.example:${receiver.port}`);
  t.is(receiver.requests[0]?.localAddress, '::1');
});

test('the connected address is checked again before anything is written (http and https)', async (t) => {
  const tls = await selfSignedCertificate({ name: 'hooks.test.example' });
  for (const [scheme, receiver] of [
    ['http', await startHttpReceiver()],
    ['https', await startHttpsReceiver(tls)],
  ] as const) {
    t.teardown(() => receiver.close());
    const sender = new HttpWebhookSender({ egressAllow: ['127.0.0.1'], dnsOverrides: { 'hooks.test.example': '127.0.0.1' }, ca: tls.cert });
    // The first check (after resolving) passes; the one on the connected socket refuses.
    const guard = sender['guard'];
    const original = guard.refusal.bind(guard);
    let calls = 0;
    guard.refusal = (address: string) => (++calls > 1 ? 'refused at connect' : original(address));
    const response = await sender.send(request(`${scheme}://hooks.test.example:${receiver.port}/`));
    t.like(response, { status: undefined, error: 'refused: connected address is not the checked one or not public (refused at connect)' }, scheme);
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.is(receiver.requests.length, 0, scheme);
  }
});

test("the answer's first KiB comes back as text, for the delivery log; the rest is never read", async (t) => {
  const { receiver, sender, url } = await allowedHttp((req, res) => {
    const long = (req.url ?? '').startsWith('/long');
    res.writeHead(long ? 500 : 200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(long ? 'ก'.repeat(2000) : '{"received":true}');
  });
  t.teardown(() => receiver.close());
  t.like(await sender.send(request(url)), { status: 200, body: '{"received":true}' });
  const long = await sender.send(request(url.replace('/hooks', '/long')));
  t.is(long.status, 500);
  t.is(Buffer.byteLength(long.body ?? '', 'utf8') <= 1024 + 2, true, 'at most a KiB (a cut character becomes one replacement character)');
  t.true((long.body ?? '').startsWith('ก'.repeat(300)));
  const empty = await allowedHttp((_req, res) => void res.writeHead(204).end());
  t.teardown(() => empty.receiver.close());
  t.false('body' in (await empty.sender.send(request(empty.url))), 'no answer body: none');
});
