import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { jsonAt, objectAt, textAt } from '../fixtures';
import { createMerchantWithAdmin, REPO_ROOT, runNode, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';

/*
 * An OpenAPI document is for generating clients: this generates one from the document a started
 * service serves (openapi-typescript for the types, openapi-fetch for the calls) and runs the
 * README's payment flow with it (generated-client/payment-flow.mts): create an intent, place an
 * attempt, simulate the payment, read it back, list the events and retrieve one. The flow is
 * type-checked against the generated types first, so a document that types a call wrongly
 * fails here as surely as one that answers wrongly.
 */

let environment: ServiceEnvironment;
let service: RunningService;
let key: string;

test.before(async () => {
  environment = await serviceEnvironment();
  service = await startService(environment.env);
  key = (await createMerchantWithAdmin(environment.env, { name: 'Generated Client Shop' })).testApiKey;
});

test.after.always(async () => {
  await service?.stop();
  await environment?.cleanup();
});

/** Runs `node <script> …args` to its end; fails the test with its output when it does not exit 0. */
function succeeds(what: string, script: string, args: string[]): string {
  const run = spawnSync(process.execPath, [script, ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${what} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

test('a client generated from the served document runs the payment flow: types from openapi-typescript, calls by openapi-fetch', async (t) => {
  // Under dist/, so node and tsc find openapi-fetch from it as from any file of the repository.
  const dir = mkdtempSync(join(__dirname, 'generated-client-'));
  try {
    const document = await fetch(`${service.baseUrl}/v1/openapi.json`);
    t.is(document.status, 200);
    writeFileSync(join(dir, 'openapi.json'), await document.text());
    succeeds('openapi-typescript', join(REPO_ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), [
      join(dir, 'openapi.json'),
      '-o',
      join(dir, 'openapi.ts'),
    ]);
    copyFileSync(join(REPO_ROOT, 'test', 'e2e', 'generated-client', 'payment-flow.mts'), join(dir, 'payment-flow.mts'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(REPO_ROOT, 'tsconfig.base.json'),
        compilerOptions: { composite: false, declaration: false, declarationMap: false, sourceMap: false, rootDir: '.', outDir: 'out' },
        files: ['payment-flow.mts', 'openapi.ts'],
      }),
    );
    succeeds('tsc on the flow and the generated types', join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), ['-p', join(dir, 'tsconfig.json')]);

    const run = await runNode({ PATH: process.env.PATH, PAYMENTS_URL: service.baseUrl, PAYMENTS_KEY: key }, join(dir, 'out', 'payment-flow.mjs'), []);
    t.is(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const seen = objectAt(JSON.parse(run.stdout));
    t.like(seen, {
      created: { status: 'created' },
      attempt: { status: 'pending', next_action: 'qr_code', http: 201 },
      read: { amount: 25000, currency: 'THB' },
      missing: { status: 404, code: 'resource_not_found' },
    });
    t.regex(textAt(seen, 'created', 'checkout_url'), /\/c\/[A-Za-z0-9_-]+$/);
    t.regex(textAt(seen, 'created', 'request_id'), /^req_/);
    t.is(jsonAt(seen, 'attempt', 'payment_intent'), jsonAt(seen, 'created', 'id'));
    // The worker's next tick may already have found the payment settled at the channel.
    t.true(['succeeded', 'channel_settled'].includes(textAt(seen, 'paid', 'status')));
    t.true(['succeeded', 'channel_settled'].includes(textAt(seen, 'read', 'status')));
    t.is(jsonAt(seen, 'paid', 'fee'), 412);
    t.is(jsonAt(seen, 'paid', 'net'), 24588);
    t.deepEqual(jsonAt(seen, 'event', 'retrieved'), jsonAt(seen, 'event', 'listed'));
    t.like(objectAt(seen, 'event', 'retrieved'), { type: 'payment_intent.succeeded', livemode: false, data: { id: textAt(seen, 'created', 'id') } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
