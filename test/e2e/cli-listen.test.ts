import { createServer, type Server } from 'node:http';
import test from 'ava';
import { listeningPort } from '@payments/node-runtime';
import { Payments, SIGNATURE_HEADER, type Event } from '@payments/sdk';
import { cliEnvironment, createMerchant, runCli, startCli } from './cli-process';
import { freePort, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';

/*
 * `payments listen` forwards events to a local receiver that verifies each delivery as a
 * production handler would (SDK constructEvent with the secret listen printed), resumes from
 * its stored cursor after a restart with no duplicate and no gap, and `events resend` re-delivers.
 */

interface Received {
  id: string;
  type: string;
  verified: boolean;
  why?: string;
}

let environment: ServiceEnvironment;
let service: RunningService;
let payments: Payments;
let env: NodeJS.ProcessEnv;
let server: Server;
let receiverUrl: string;
let secret: string | undefined;
const received: Received[] = [];

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
      const body = Buffer.concat(chunks);
      try {
        if (!secret) throw new Error('no secret yet');
        const header = request.headers[SIGNATURE_HEADER];
        const event = payments.webhooks.constructEvent(body, typeof header === 'string' ? header : undefined, { secret });
        received.push({ id: event.id, type: event.type, verified: true });
        response.writeHead(200).end('ok');
      } catch (error) {
        received.push({ id: '?', type: '?', verified: false, why: String(error) });
        response.writeHead(400).end('bad signature');
      }
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

  const args = ['listen', '--forward-to', receiverUrl, '--interval', '200ms'];
  let listen = startCli(env, args);
  await listen.waitFor(() => /Webhook signing secret: [0-9a-f]{64}\n/.test(listen.stderr()), 'the ready lines');
  secret = /Webhook signing secret: ([0-9a-f]{64})\n/.exec(listen.stderr())?.[1];
  t.is(
    listen.stderr(),
    `Ready. Forwarding events to ${receiverUrl} (profile default).\nWebhook signing secret: ${secret}\nResuming after ${startCursor}. Ctrl-C to stop.\n`,
  );

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
  listen = startCli(env, args);
  await listen.waitFor(() => listen.stderr().includes('Ctrl-C to stop'), 'the restart');
  t.true(listen.stderr().includes(`Resuming after ${lastForwarded}.`));
  expected = await eventsAfter(startCursor);
  await listen.waitFor(() => received.some((event) => event.type === 'payment_intent.failed'), 'the failed event');
  await new Promise((r) => setTimeout(r, 1000));
  t.is(await listen.stop('SIGINT'), 0);

  expected = await eventsAfter(startCursor);
  t.true(
    received.every((event) => event.verified),
    JSON.stringify(received.filter((event) => !event.verified)),
  );
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
  t.deepEqual(received[received.length - 1], { id: again.id, type: again.type, verified: true });

  // A receiver that is not there: exit 8, the status line says why.
  const nowhere = await runCli(env, ['events', 'resend', again.id, '--forward-to', `http://127.0.0.1:${await freePort()}/webhooks`]);
  t.is(nowhere.code, 8);
  t.regex(nowhere.stdout, /\[failed: ECONNREFUSED\]/);

  // --since replays from an older event, and the filter keeps only the types asked for.
  const replay = startCli(env, [...args, '--since', startCursor, '--events', 'payment_intent.succeeded']);
  const before = received.length;
  await replay.waitFor(() => received.length > before, 'the replay');
  await new Promise((r) => setTimeout(r, 800));
  t.is(await replay.stop(), 0);
  const replayed = received.slice(before);
  t.deepEqual(
    replayed.map((event) => event.type),
    ['payment_intent.succeeded'],
  );

  const missing = await runCli(env, ['events', 'get', 'evt_AAAAAAAAAAAAAAAAAAAAAAAAAA']);
  t.is(missing.code, 5);
  t.is(missing.stderr, "Error: No event evt_AAAAAAAAAAAAAAAAAAAAAAAAAA among this key's events (test and live keys see their own).\n");
});
