import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import test from 'ava';
import { listeningPort } from '@payments/node-runtime';
import { Payments, SIGNATURE_HEADER, type Event } from '@payments/sdk';
import { textAt } from '../fixtures';
import { cliEnvironment, createMerchant, runCli, startCli, type CliProcess } from './cli-process';
import { standardWebhooksSecret, verifyStandardWebhook, verifyStandardWebhookEd25519 } from './standard-webhooks';
import { freePort, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';

/*
 * `payments listen` forwards events to a local receiver that verifies each delivery every way a
 * production handler may: the SDK's constructEvent with the secret listen printed (v1), its
 * constructEventAsync with a client pointed at the key listen serves (v2), the standardwebhooks
 * package with the whsec_ secret (Standard Webhooks v1) and the v1a Ed25519 entry. It resumes
 * from its stored cursor after a restart with no duplicate and no gap, and `events resend`
 * re-delivers.
 */

/** Which of the signatures of one delivery verified. */
interface Checks {
  v1: boolean;
  v2: boolean;
  standard: boolean;
  standardEd25519: boolean;
}

interface Received extends Checks {
  id: string;
  type: string;
  /** Why a check failed. */
  why: string[];
}

/** What the running listen printed: the secret, and the run's v2 key and where it is served. */
interface ListenRun {
  secret: string;
  keyId: string;
  publicKey: string;
  /** A client whose constructEventAsync fetches the keys from listen's key server. */
  verifier: Payments;
}

const ALL_VERIFIED: Checks = { v1: true, v2: true, standard: true, standardEd25519: true };

let environment: ServiceEnvironment;
let service: RunningService;
let payments: Payments;
let env: NodeJS.ProcessEnv;
let server: Server;
let receiverUrl: string;
let current: ListenRun | undefined;
const received: Received[] = [];

/**
 * The listen run that signed a delivery: the one whose v2 key the header names. A run forwards as
 * soon as it starts (a replay with --since does at once), possibly before this test has read its
 * ready lines, so a delivery waits a little for its run to be known rather than being checked
 * against the previous run's keys.
 */
async function runThatSigned(header: string | undefined): Promise<ListenRun | undefined> {
  const kid = /(?:^|,)v2_kid=([^,]+)/.exec(header ?? '')?.[1];
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) {
    if (current && (kid === undefined || current.keyId === kid)) return current;
  }
  return current;
}

async function verify(headers: IncomingHttpHeaders, body: Buffer): Promise<Received> {
  const why: string[] = [];
  const header = typeof headers[SIGNATURE_HEADER] === 'string' ? headers[SIGNATURE_HEADER] : undefined;
  const run = await runThatSigned(header);
  const check = async (name: string, attempt: (signer: ListenRun) => unknown): Promise<boolean> => {
    try {
      if (!run) throw new Error('no listen run yet');
      await attempt(run);
      return true;
    } catch (error) {
      why.push(`${name}: ${String(error)}`);
      return false;
    }
  };
  const request = { headers, rawBody: body };
  const checks: Checks = {
    v1: await check('v1', (signer) => payments.webhooks.constructEvent(body, header, { secret: signer.secret })),
    v2: await check('v2', (signer) => signer.verifier.webhooks.constructEventAsync(body, header)),
    standard: await check('standard', (signer) => verifyStandardWebhook(request, signer.secret)),
    standardEd25519: await check('v1a', (signer) => {
      if (!verifyStandardWebhookEd25519(request, signer.publicKey)) throw new Error('no v1a entry verifies');
    }),
  };
  const event: unknown = JSON.parse(body.toString('utf8'));
  return { id: textAt(event, 'id'), type: textAt(event, 'type'), ...checks, why };
}

test.before(async () => {
  environment = await serviceEnvironment();
  service = await startService(environment.env);
  const key = await createMerchant(environment.env, 'CLI Listen Shop');
  payments = new Payments(key, { baseUrl: service.baseUrl });
  env = cliEnvironment(service.baseUrl, { PAYMENTS_API_KEY: key });
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void verify(request.headers, Buffer.concat(chunks)).then((delivery) => {
        received.push(delivery);
        response.writeHead(delivery.v1 ? 200 : 400).end(delivery.v1 ? 'ok' : 'bad signature');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${listeningPort(server)}/webhooks`;
});
test.after.always(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await service?.stop();
  await environment?.cleanup();
});

const READY =
  /Webhook signing secret: ([0-9a-f]{64})\nStandard Webhooks secret: (whsec_\S+)\nv2 key (key_LISTEN[A-Z2-7]{20}): (\S+), served at (http:\/\/127\.0\.0\.1:\d+)\/v1\/webhook_public_keys\n/;

/** Starts listen and waits for its ready lines; what the receiver verifies with from then on. */
async function startListen(args: string[]): Promise<{ listen: CliProcess; run: ListenRun; keysBaseUrl: string }> {
  const listen = startCli(env, args);
  await listen.waitFor(() => READY.test(listen.stderr()) && listen.stderr().includes('Ctrl-C to stop'), 'the ready lines');
  const [, secret = '', whsec = '', keyId = '', publicKey = '', keysBaseUrl = ''] = READY.exec(listen.stderr()) ?? [];
  if (whsec !== standardWebhooksSecret(secret)) throw new Error(`the whsec_ secret ${whsec} is not the secret's`);
  current = { secret, keyId, publicKey, verifier: new Payments('sk_test_verifieronly0000', { baseUrl: keysBaseUrl }) };
  return { listen, run: current, keysBaseUrl };
}

/** Every event after `cursor`, oldest first, as the API lists them. */
async function eventsAfter(cursor: string | undefined): Promise<Event[]> {
  const all = await payments.events.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
  const at = cursor ? all.findIndex((event) => event.id === cursor) : all.length;
  return all.slice(0, at).reverse();
}

async function runFlow(scenario: string): Promise<void> {
  const run = await runCli(env, ['trigger', scenario]);
  if (run.code !== 0) throw new Error(run.stderr);
}

test.serial('listen forwards verified events, resumes after a restart without duplicates or gaps; events resend re-delivers one', async (t) => {
  // Something before listen starts: the first run begins at the newest event, not the history.
  await runFlow('payment.canceled');
  const startCursor = (await payments.events.list({ limit: 1 })).data[0]?.id;
  t.truthy(startCursor);

  const args = ['listen', '--forward-to', receiverUrl, '--interval', '200ms', '--keys-port', '0'];
  let { listen, run, keysBaseUrl } = await startListen(args);
  t.is(
    listen.stderr(),
    `Ready. Forwarding events to ${receiverUrl} (profile default).\nWebhook signing secret: ${run.secret}\n` +
      `Standard Webhooks secret: ${standardWebhooksSecret(run.secret)}\n` +
      `v2 key ${run.keyId}: ${run.publicKey}, served at ${keysBaseUrl}/v1/webhook_public_keys\nResuming after ${startCursor}. Ctrl-C to stop.\n`,
  );
  // The key server answers in the API's shape; nothing else.
  t.deepEqual(await run.verifier.webhookPublicKeys.list(), {
    object: 'list',
    data: [{ id: run.keyId, object: 'webhook_public_key', algorithm: 'ed25519', public_key: run.publicKey }],
    has_more: false,
  });
  const other = await fetch(`${keysBaseUrl}/v1/balance`);
  t.is(other.status, 404);
  t.like(await other.json(), { error: { code: 'resource_not_found' } });

  await runFlow('payment.succeeded');
  let expected = await eventsAfter(startCursor);
  t.true(expected.some((event) => event.type === 'payment_intent.succeeded'));
  await listen.waitFor(() => received.length >= expected.length, 'the first deliveries');
  // The simulator may report channel settlement after the list above: take the list again.
  await new Promise((r) => setTimeout(r, 1500));
  const firstRun = (await eventsAfter(startCursor)).length;
  await listen.waitFor(() => received.length >= firstRun, 'the settlement event');

  t.is(await listen.stop('SIGTERM'), 0);
  const lastForwarded = received[received.length - 1]?.id;
  t.regex(listen.stderr(), new RegExp(`Stopped\\. The next listen resumes after ${lastForwarded}\\.\\n$`));
  const lines = listen.stdout().trimEnd().split('\n');
  t.is(lines.length, received.length);
  for (const [index, line] of lines.entries()) {
    t.regex(
      line,
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  ${received[index]?.type.replace('.', '\\.')}  ${received[index]?.id}  --> POST ${receiverUrl} \\[200\\] \\d+ ms$`,
      ),
    );
  }

  // Events that happen while listen is stopped are forwarded by the next run, after the cursor.
  await runFlow('payment.failed');
  ({ listen, run, keysBaseUrl } = await startListen(args));
  t.true(listen.stderr().includes(`Resuming after ${lastForwarded}.`));
  expected = await eventsAfter(startCursor);
  await listen.waitFor(() => received.some((event) => event.type === 'payment_intent.failed'), 'the failed event');
  await new Promise((r) => setTimeout(r, 1000));
  // Ctrl-C: exit 130, as a shell reports an interrupted command; the cursor is kept all the same.
  t.is(await listen.stop('SIGINT'), 130);
  t.regex(listen.stderr(), /\nStopped\. The next listen resumes after evt_\w+\.\n$/);

  expected = await eventsAfter(startCursor);
  for (const delivery of received) t.like(delivery, { ...ALL_VERIFIED, why: [] }, `${delivery.id}: ${delivery.why.join('; ')}`);
  t.deepEqual(
    received.map((event) => event.id),
    expected.map((event) => event.id),
    'every event after the start cursor, oldest first, once',
  );

  // resend: one event again, signed the same way.
  const again = expected[0];
  const resend = await runCli(env, ['events', 'resend', again.id, '--forward-to', receiverUrl, '--json']);
  t.is(resend.code, 0, resend.stderr);
  t.like(JSON.parse(resend.stdout), { event: again.id, type: again.type, url: receiverUrl, status: 200, ok: true });
  // Signed with the secret (v1, and Standard Webhooks' v1); the v2 key lived only while listen ran.
  t.like(received[received.length - 1], { id: again.id, type: again.type, v1: true, standard: true, v2: false, standardEd25519: false });

  // A receiver that is not there: exit 8, the status line says why.
  const nowhere = await runCli(env, ['events', 'resend', again.id, '--forward-to', `http://127.0.0.1:${await freePort()}/webhooks`]);
  t.is(nowhere.code, 8);
  t.regex(nowhere.stdout, /\[failed: ECONNREFUSED\]/);

  // --since replays from an older event, and the filter keeps only the types asked for.
  const before = received.length;
  const { listen: replay } = await startListen([...args, '--since', startCursor, '--events', 'payment_intent.succeeded']);
  await replay.waitFor(() => received.length > before, 'the replay');
  await new Promise((r) => setTimeout(r, 800));
  t.is(await replay.stop(), 0);
  const replayed = received.slice(before);
  t.deepEqual(
    replayed.map((event) => event.type),
    ['payment_intent.succeeded'],
  );
  t.like(replayed[0], ALL_VERIFIED, "signed with the new run's key");

  const missing = await runCli(env, ['events', 'get', 'evt_AAAAAAAAAAAAAAAAAAAAAAAAAA']);
  t.is(missing.code, 5);
  t.is(missing.stderr, "Error: No event evt_AAAAAAAAAAAAAAAAAAAAAAAAAA among this key's events (test and live keys see their own).\n");
});
