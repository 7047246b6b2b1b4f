import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { fakeApi, intent, KEY, type FakeApi } from './helpers/fake-api';
import { jsonField } from './helpers/json';

/*
 * What a merchant gets from `npm pack`: installed offline into a fresh project (the SDK has no
 * dependencies), then used from `require`, from `import`, and type-checked from TypeScript in both
 * module systems.
 */

const SDK_DIR = join(__dirname, '..', '..');
const REPO_ROOT = join(SDK_DIR, '..');

let work: string;
let api: FakeApi;
let tarball: string;
let files: string[];

test.before(async () => {
  work = mkdtempSync(join(tmpdir(), 'sdk-pack-'));
  api = await fakeApi((req) => ({ status: req.method === 'POST' ? 201 : 200, body: intent('pi_packed') }));
  const output: unknown = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: SDK_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const packed: unknown = Array.isArray(output) ? output[0] : undefined;
  const filename = jsonField(packed, 'filename');
  const packedFiles = jsonField(packed, 'files');
  if (typeof filename !== 'string' || !Array.isArray(packedFiles)) throw new Error(`npm pack --json answered ${JSON.stringify(output)}`);
  tarball = join(work, filename);
  files = packedFiles.map((file: unknown) => String(jsonField(file, 'path')));
  const project = join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
});
test.after.always(async () => {
  await api?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs a script in the consumer project; async, because the fake API answers from this same thread. */
function runNode(file: string, source: string): Promise<string> {
  const path = join(work, 'consumer', file);
  writeFileSync(path, source);
  const child = spawn(process.execPath, [path], { cwd: join(work, 'consumer'), env: { ...plainEnvironment(), API_URL: api.baseUrl, KEY } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(stdout.trim()) : reject(new Error(stderr)))));
}

/** The environment without FORCE_COLOR (lerna sets it), so console.log prints booleans as plain text. */
function plainEnvironment(): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _forced, ...rest } = process.env;
  return rest;
}

test('the tarball holds both builds with their declarations, the README, and nothing else', (t) => {
  t.true(files.includes('dist/cjs/index.js') && files.includes('dist/cjs/index.d.ts'));
  t.true(files.includes('esm/index.js') && files.includes('esm/index.d.ts') && files.includes('esm/package.json'));
  t.true(files.includes('README.md') && files.includes('package.json'));
  t.deepEqual(
    files.filter((file) => !/^((dist\/cjs|esm)\/.+\.(js|d\.ts)|esm\/package\.json|README\.md|package\.json)$/.test(file)),
    [],
  );
  const manifest: unknown = JSON.parse(readFileSync(join(SDK_DIR, 'package.json'), 'utf8'));
  t.is(jsonField(manifest, 'dependencies'), undefined, 'no runtime dependencies');
  t.regex(readFileSync(join(SDK_DIR, 'src', 'version.ts'), 'utf8'), new RegExp(`'${String(jsonField(manifest, 'version')).replaceAll('.', '\\.')}'`));
});

test('require() gets the CommonJS build and it calls the API', async (t) => {
  const out = await runNode(
    'use.cjs',
    `const { Payments, NotFoundError } = require('@payments/sdk');
     const payments = new Payments(process.env.KEY, { baseUrl: process.env.API_URL });
     payments.paymentIntents.create({ amount: 1, currency: 'THB', merchant_order_id: 'o' })
       .then((pi) => console.log(pi.id, typeof NotFoundError, require.resolve('@payments/sdk').includes('dist/cjs')));`,
  );
  t.is(out, 'pi_packed function true');
});

test('import gets the ES module build, named and default exports', async (t) => {
  const out = await runNode(
    'use.mjs',
    `import PaymentsDefault, { Payments, SignatureVerificationError } from '@payments/sdk';
     const payments = new Payments(process.env.KEY, { baseUrl: process.env.API_URL });
     const pi = await payments.paymentIntents.retrieve('pi_packed');
     console.log(pi.id, PaymentsDefault === Payments, typeof SignatureVerificationError, import.meta.resolve('@payments/sdk').includes('/esm/'));`,
  );
  t.is(out, 'pi_packed true function true');
});

test('TypeScript finds the declarations from both module systems', (t) => {
  const project = join(work, 'consumer');
  const usage = `const payments = new Payments('sk_test_x', { maxNetworkRetries: 1 });
    export async function firstSucceeded(): Promise<string | undefined> {
      for await (const pi of payments.paymentIntents.list({ status: 'succeeded' })) return pi.id;
      return undefined;
    }
    export function kind(event: Event): string { return event.type === 'settlement.paid' ? event.data.amount.currency : event.data.status; }`;
  writeFileSync(join(project, 'use-types.cts'), `import { Payments, type Event } from '@payments/sdk';\n${usage}\n`);
  writeFileSync(join(project, 'use-types.mts'), `import { Payments, type Event } from '@payments/sdk';\n${usage}\n`);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true },
      files: ['use-types.cts', 'use-types.mts'],
    }),
  );
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { encoding: 'utf8' });
  t.is(run.status, 0, run.stdout + run.stderr);
});

test("TypeScript for a browser or worker finds the web build's declarations, with DOM types and no Node types", (t) => {
  const project = join(work, 'consumer', 'web');
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'worker.ts'),
    `import { Payments, SignatureVerificationError, WebCryptoProvider, type Event } from '@payments/sdk';
    const payments = new Payments('sk_test_x', { crypto: new WebCryptoProvider() });
    export async function handle(request: Request): Promise<Response> {
      try {
        const event: Event = await payments.webhooks.constructEventAsync(await request.arrayBuffer(), request.headers, { secret: 'ab'.repeat(32) });
        return new Response(event.id);
      } catch (error) {
        return new Response(error instanceof SignatureVerificationError ? error.reason : 'error', { status: 400 });
      }
    }
    export const aborted = (signal: AbortSignal) => payments.balance.retrieve({ signal }).then((balance) => balance.lastResponse.requestId);\n`,
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'esnext',
        moduleResolution: 'bundler',
        customConditions: ['worker'],
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        types: [],
        strict: true,
        noEmit: true,
      },
      files: ['worker.ts'],
    }),
  );
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project, '--traceResolution'], {
    encoding: 'utf8',
  });
  t.is(
    run.status,
    0,
    run.stdout
      .split('\n')
      .filter((line) => line.includes('error'))
      .join('\n') + run.stderr,
  );
  t.regex(run.stdout, /'@payments\/sdk' was successfully resolved to '[^']*\/esm\/web\.d\.ts'/);
});
