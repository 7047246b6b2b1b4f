import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { REPO_ROOT } from './process';
import { readmeBlocks } from './readme-runner';
import { signedDelivery } from './sdk-bundles';

/*
 * The SDK README's webhook endpoint, its files as written, in each runtime the README's table
 * names: the Worker in workerd (Miniflare, bundled as wrangler bundles it), the Deno file under
 * the README's `deno serve` command, the Bun file under its `bun` command. Each answers a delivery
 * signed by the endpoint secret (v1) 200 and the same delivery with its body changed 400. The
 * runtimes are the test workspace's devDependencies (`miniflare`, `deno`, `bun`: npm packages
 * whose platform binaries come as optional dependencies); one whose binary this platform did not
 * get is skipped with the reason in the log, never passed silently.
 */

const README = 'sdk/README.md';
const BIN = join(REPO_ROOT, 'node_modules', '.bin');
/** A date the pinned workerd knows (Miniflare refuses dates past its workerd's). */
const COMPATIBILITY_DATE = '2026-04-01';

/** A project as the README asks for: a package.json and `@payments/sdk` in node_modules (here the repository's own, linked). */
const project = mkdtempSync(join(tmpdir(), 'payments-sdk-edge-'));
const delivery = signedDelivery();

test.before(() => {
  mkdirSync(join(project, 'node_modules', '@payments'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'sdk'), join(project, 'node_modules', '@payments', 'sdk'), 'dir');
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'webhook-endpoint', private: true, type: 'module', dependencies: { '@payments/sdk': `file:${join(REPO_ROOT, 'sdk')}` } }),
  );
  readmeFile('edge-handler');
});

test.after.always(() => rmSync(project, { recursive: true, force: true }));

/** Writes the README's js block between `<!-- marker:start -->` and `:end` as the file its first line names; answers that name. */
function readmeFile(marker: string): string {
  const code = readmeBlocks(README, marker, 'js');
  const name = /^\/\/ ([\w.-]+\.js)\b/.exec(code)?.[1];
  if (name === undefined) throw new Error(`The README's ${marker} block does not start with the // name of its file.`);
  writeFileSync(join(project, name), code);
  return name;
}

/** The README's command (its sh block) for the marker. */
function readmeCommand(marker: string): string {
  const command = readmeBlocks(README, marker, 'sh').trim();
  if (!command || command.includes('\n')) throw new Error(`The README's ${marker} block should hold one command, not ${JSON.stringify(command)}.`);
  return command;
}

/** Why the runtime's binary cannot run here, or undefined when `<binary> --version` answers. */
function missingBinary(binary: string): string | undefined {
  const run = spawnSync(join(BIN, binary), ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (run.status === 0) return undefined;
  const why = run.error?.message ?? (run.stderr.trim() || `exit ${run.status}`);
  return `\`${binary} --version\` does not run on ${process.platform}-${process.arch} (${why}): the npm package's binary comes from an optional dependency for this platform, linked by its postinstall script`;
}

/** Only the environment the README names, so nothing of this machine's (a PAYMENTS_KEY) leaks in. */
function runtimeEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}`,
    HOME: project,
    DENO_DIR: join(project, '.deno'),
    DENO_NO_UPDATE_CHECK: '1',
    NO_COLOR: '1',
    WEBHOOK_SECRET: delivery.secret,
    ...extra,
  };
}

interface Answer {
  status: number;
  body: string;
}

/** Posts the signed delivery and the tampered one; `send` is the runtime's way in. */
async function signedAndTampered(send: (body: string) => Promise<Answer>): Promise<{ signed: Answer; tampered: Answer }> {
  return { signed: await send(delivery.body), tampered: await send(delivery.tampered) };
}

const EXPECTED = {
  signed: { status: 200, body: JSON.stringify({ received: 'evt_RUNTIME' }) },
  tampered: { status: 400, body: 'refused: wrong_secret' },
};

function post(url: string, body: string): Promise<Answer> {
  return fetch(url, { method: 'POST', headers: delivery.headers, body }).then(async (response) => ({ status: response.status, body: await response.text() }));
}

/**
 * Runs the README's command in the project and waits for it to print the URL it listens on; the
 * command runs as written but for `--host 127.0.0.1 --port 0` after `deno serve`, and Bun takes
 * `$PORT` 0: a free port each run.
 */
async function serving<T>(t: ExecutionContext, command: string, env: NodeJS.ProcessEnv, use: (url: string) => Promise<T>): Promise<T> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', `exec ${command}`], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  try {
    const deadline = Date.now() + 30_000;
    let port: string | undefined;
    while ((port = /https?:\/\/[^\s/]+:(\d+)/.exec(output)?.[1]) === undefined) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${command} did not start (exit ${child.exitCode}):\n${output}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return await use(`http://127.0.0.1:${port}/webhooks`);
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    t.log(`${command}: ${output.trim().split('\n')[0]}`);
  }
}

test.serial("the README's Worker, bundled as wrangler bundles it, answers in workerd (Miniflare): signed 200, tampered 400", async (t) => {
  const missing = missingBinary('workerd');
  if (missing) {
    t.log(`skipped: ${missing}`);
    t.pass();
    return;
  }
  const worker = readmeFile('edge-worker');
  const bundled = await build({
    entryPoints: [join(project, worker)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    target: 'es2022',
    absWorkingDir: project,
    logLevel: 'silent',
    metafile: true,
  });
  t.true(
    Object.keys(bundled.metafile.inputs).some((input) => input.endsWith('sdk/esm/web.js')),
    "wrangler's conditions pick the SDK's web build",
  );
  const miniflare = new Miniflare({
    modules: true,
    script: bundled.outputFiles[0]?.text ?? '',
    compatibilityDate: COMPATIBILITY_DATE,
    bindings: { WEBHOOK_SECRET: delivery.secret },
  });
  try {
    const answers = await signedAndTampered(async (body) => {
      const response = await miniflare.dispatchFetch('https://hooks.example/webhooks', { method: 'POST', headers: delivery.headers, body });
      return { status: response.status, body: await response.text() };
    });
    t.deepEqual(answers, EXPECTED);
  } finally {
    await miniflare.dispose();
  }
});

test.serial("the README's Deno file, under the README's deno serve command, takes the web build and answers: signed 200, tampered 400", async (t) => {
  const missing = missingBinary('deno');
  if (missing) {
    t.log(`skipped: ${missing}`);
    t.pass();
    return;
  }
  const file = readmeFile('edge-deno');
  const command = readmeCommand('edge-deno');
  t.true(command.startsWith('deno serve ') && command.endsWith(` ${file}`), command);
  const env = runtimeEnv();
  const resolved = spawnSync('deno', ['eval', "console.log(import.meta.resolve('@payments/sdk'))"], { cwd: project, env, encoding: 'utf8', timeout: 30_000 });
  t.regex(resolved.stdout, /\/sdk\/esm\/web\.js$/m, resolved.stderr);
  const answers = await serving(t, command.replace(/^deno serve /, 'deno serve --host 127.0.0.1 --port 0 '), env, (url) =>
    signedAndTampered((body) => post(url, body)),
  );
  t.deepEqual(answers, EXPECTED);
});

test.serial("the README's Bun file, under the README's bun command, takes the Node build and answers: signed 200, tampered 400", async (t) => {
  const missing = missingBinary('bun');
  if (missing) {
    t.log(`skipped: ${missing}`);
    t.pass();
    return;
  }
  const file = readmeFile('edge-bun');
  const command = readmeCommand('edge-bun');
  t.is(command, `bun ${file}`);
  const env = runtimeEnv({ PORT: '0' });
  const resolved = spawnSync('bun', ['-e', "console.log(import.meta.resolve('@payments/sdk'))"], { cwd: project, env, encoding: 'utf8', timeout: 30_000 });
  t.regex(resolved.stdout, /\/sdk\/esm\/index\.js$/m, resolved.stderr);
  const answers = await serving(t, command, env, (url) => signedAndTampered((body) => post(url, body)));
  t.deepEqual(answers, EXPECTED);
});
