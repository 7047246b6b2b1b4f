import { createHmac, randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import test from 'ava';
import { listeningPort } from '@payments/node-runtime';
import { listAt, textAt } from '../fixtures';
import { createMerchantWithAdmin, merchantApi, serviceEnvironment, startService, startWorker, type ServiceEnvironment } from './process';
import { insertWebhookEndpoint } from './webhook-endpoint-fixture';
import { startWebhookReceiver, type RecordedWebhook, type WebhookReceiver } from './webhook-receiver';

/** A TCP relay in front of the receiver that can hold new connections, so a worker can be caught mid-delivery. */
interface Gate {
  readonly port: number;
  hold: boolean;
  readonly held: Socket[];
  close(): Promise<void>;
}

async function startGate(targetPort: number): Promise<Gate> {
  const sockets = new Set<Socket>();
  const gate = { hold: false, held: [] as Socket[] } as { hold: boolean; held: Socket[] };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    if (gate.hold) {
      gate.held.push(socket);
      return;
    }
    const upstream = createConnection(targetPort, '127.0.0.1');
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(gate, {
    port: listeningPort(server),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

let environment: ServiceEnvironment;
let receiver: WebhookReceiver;
let gate: Gate;
test.before(async () => {
  environment = await serviceEnvironment();
  receiver = await startWebhookReceiver({ hostname: 'relay-workers.test.example' });
  gate = await startGate(receiver.port);
});
test.after.always(async () => {
  await gate?.close();
  await receiver?.close();
  await environment?.cleanup();
});

const eventIdOf = (request: RecordedWebhook): string => textAt(JSON.parse(request.body), 'id');

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

test('two worker processes relay every event once; a worker SIGKILLed mid-pass loses nothing', async (t) => {
  const masterKey = randomBytes(32).toString('hex');
  // No Redis: only the database (SKIP LOCKED, the lease) keeps the workers apart.
  const { PAYMENTS_REDIS_URL: _redis, ...base } = environment.env;
  const env: NodeJS.ProcessEnv = {
    ...base,
    ...receiver.env,
    PAYMENTS_MASTER_KEY: masterKey,
    PAYMENTS_WEBHOOK_LEASE_MS: '12000',
    PAYMENTS_RATE_LIMIT_TEST: '0',
  };
  const merchant = await createMerchantWithAdmin(env, { name: 'Relay' });
  const key = merchant.testApiKey;

  // The endpoint goes straight into the database: the dashboard would refuse the receiver's port-bearing test host.
  const secret = randomBytes(32).toString('hex');
  await insertWebhookEndpoint(env, {
    merchantId: merchant.id,
    url: receiver.url.replace(`:${receiver.port}/`, `:${gate.port}/`),
    secret,
  });

  const api = await startService(env, 'apps/api/dist/src/main.js', []);
  const call = merchantApi(api.baseUrl, key);
  const cancelIntents = async (n: number, tag: string): Promise<void> => {
    for (let i = 0; i < n; i += 1) {
      const intent = await call('POST', '/v1/payment_intents', { amount: 1000 + i, currency: 'THB', merchant_order_id: `${tag}-${i}` });
      await call('POST', `/v1/payment_intents/${textAt(intent, 'id')}/cancel`);
    }
  };
  const eventIds = async (): Promise<string[]> => listAt(await call('GET', '/v1/events?limit=100'), 'data').map((event) => textAt(event, 'id'));

  try {
    // Phase 1: two workers share the backlog; every event arrives exactly once.
    await cancelIntents(20, 'one');
    const phaseOne = await eventIds();
    t.is(phaseOne.length, 20);
    const workerEnv = { ...env, PAYMENTS_TICK_MS: '20' };
    const [a, b] = await Promise.all([startWorker(workerEnv), startWorker(workerEnv)]);
    await receiver.waitFor(20, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    const received = receiver.requests.map(eventIdOf);
    t.deepEqual([...received].sort(), [...phaseOne].sort(), 'each event once, none twice');

    // Same bodies as GET /v1/events, signed with the endpoint secret.
    const listed = listAt(await call('GET', '/v1/events?limit=100'), 'data');
    for (const request of receiver.requests) {
      t.true(listed.some((event) => JSON.stringify(event) === request.body));
      const header = String(request.headers['x-webhook-signature']);
      const ts = /t=(\d+)/.exec(header)![1];
      t.is(/v1=([0-9a-f]+)/.exec(header)![1], createHmac('sha256', Buffer.from(secret, 'hex')).update(`${ts}.${request.body}`).digest('hex'));
    }

    // Phase 2: one worker alone claims a batch and is SIGKILLed while its POSTs are in flight.
    t.is(await b.stop(), 0);
    const before = receiver.requests.length;
    gate.hold = true;
    await cancelIntents(30, 'two');
    const phaseTwo = (await eventIds()).filter((id) => !phaseOne.includes(id));
    t.is(phaseTwo.length, 30);
    t.true(await until(() => gate.held.length > 0, 20_000), 'the worker is mid-delivery');
    await new Promise((r) => setTimeout(r, 300));
    await a.kill();
    t.is(receiver.requests.length, before, 'nothing of phase two arrived before the kill');
    for (const socket of gate.held.splice(0)) socket.destroy();
    gate.hold = false;
    const c = await startWorker(workerEnv);
    try {
      const arrived = () => new Set(receiver.requests.slice(before).map(eventIdOf));
      t.true(await until(() => phaseTwo.every((id) => arrived().has(id)), 40_000), 'every event arrives after the kill (lease ran out)');
    } finally {
      t.is(await c.stop(), 0);
    }
  } finally {
    await api.stop();
  }
});
