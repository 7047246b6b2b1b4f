import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createMerchant } from './cli-process';
import { freePort, REPO_ROOT } from './process';
import { readmeBlocks, readmeService } from './readme-runner';

/*
 * cli/README.md's v2 handler and `listen`, run as written: the handler file, then its three
 * commands (handler, listen, a flow), each in a "terminal" of its own. Liberties: the ports of the
 * README (API 4242, handler 3000, key server 4243) become free ones, the handler file goes to a
 * scratch folder below the repository (it requires @payments/sdk from there), and the key comes
 * and the API from PAYMENTS_API_KEY and PAYMENTS_API_BASE instead of a stored login.
 */

const scratch = join(REPO_ROOT, 'test', 'dist', 'readme-listen');
const started = readmeService(() => rmSync(scratch, { recursive: true, force: true }));

interface Terminal {
  child: ChildProcessByStdio<null, Readable, Readable>;
  output: () => string;
  close: () => void;
}

/** A command of the README in a shell of its own (its own process group, so the whole of it can be stopped). */
function terminal(command: string, cwd: string, env: NodeJS.ProcessEnv): Terminal {
  // stdin not a socket: bash would take itself for a remote shell's and read the system bashrc.
  const child = spawn('bash', ['--norc', '-euo', 'pipefail', '-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return {
    child,
    output: () => output,
    close: () => {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    },
  };
}

async function until(what: string, condition: () => boolean, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('the README handler verifies the v2 signatures of what listen forwards', async (t) => {
  const { environment, localize, service } = started();
  const [handlerPort, keysPort] = [await freePort(), await freePort()];
  const ports = (text: string) => localize(text).replaceAll('3000', String(handlerPort)).replaceAll('4243', String(keysPort));
  const source = readmeBlocks('cli/README.md', 'listen', 'js');
  t.true(source.includes('constructEventAsync'), 'the handler was found');
  const commands = ports(readmeBlocks('cli/README.md', 'listen', 'sh'))
    .trim()
    .split(/\n+/);
  t.is(commands.length, 3, commands.join('\n'));
  const [handlerCommand = '', listenCommand = '', flowCommand = ''] = commands;

  mkdirSync(scratch, { recursive: true });
  const folder = mkdtempSync(join(scratch, 'handler-'));
  writeFileSync(join(folder, 'webhook-handler.js'), ports(source));
  const key = await createMerchant(environment.env, 'README Listen Shop');
  const env = {
    ...environment.env,
    PAYMENTS_KEY: key,
    PAYMENTS_API_KEY: key,
    PAYMENTS_API_BASE: service.baseUrl,
    PAYMENTS_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'payments-readme-listen-')), 'config'),
  };

  const handler = terminal(handlerCommand, folder, env);
  const listen = terminal(listenCommand, REPO_ROOT, env);
  try {
    await until('the handler', () => handler.output().includes(`handler on http://localhost:${handlerPort}/webhooks`), handler.output);
    await until('listen', () => listen.output().includes('Ctrl-C to stop'), listen.output);
    t.true(listen.output().includes(`served at http://127.0.0.1:${keysPort}/v1/webhook_public_keys`), listen.output());

    const flow = spawnSync('bash', ['--norc', '-euo', 'pipefail', '-c', flowCommand], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 60_000 });
    t.is(flow.status, 0, flow.stderr);
    await until(
      'the verified event',
      () => /^verified payment_intent\.succeeded evt_\w+$/m.test(handler.output()),
      () => `${handler.output()}\n${listen.output()}`,
    );
    t.false(handler.output().includes('refused'), handler.output());
    t.regex(listen.output(), / {2}payment_intent\.succeeded {2}evt_\w+ {2}--> POST http:\/\/localhost:\d+\/webhooks \[200\] \d+ ms/);
  } finally {
    handler.close();
    listen.close();
  }
});
