import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMerchantWithAdmin, REPO_ROOT, runNode, spawnNode } from './process';

/** The built `payments` command, run as users run it: `node cli/dist/src/main.js`. */
export const CLI = join(REPO_ROOT, 'cli', 'dist', 'src', 'main.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A sandbox for the CLI: its own config dir (PAYMENTS_CONFIG_DIR) and the service's base URL,
 * and nothing else from this process's environment, so a developer's own profile never leaks in.
 */
/** The CLI's environment: its own HOME and configuration directory, pointed at one service. */
export type CliEnvironment = NodeJS.ProcessEnv & { readonly PAYMENTS_CONFIG_DIR: string };

export function cliEnvironment(baseUrl: string, extra: NodeJS.ProcessEnv = {}): CliEnvironment {
  return {
    PATH: process.env.PATH,
    HOME: mkdtempSync(join(tmpdir(), 'payments-cli-home-')),
    PAYMENTS_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'payments-cli-')), 'config'),
    PAYMENTS_API_BASE: baseUrl,
    ...extra,
  };
}

/**
 * Runs `payments …args` to its end; asynchronous so receivers in this process keep answering.
 * With `input`, that is piped to its stdin (which is then closed).
 */
export function runCli(env: NodeJS.ProcessEnv, args: string[], input?: string): Promise<CliRun> {
  if (input === undefined) return runNode(env, CLI, args);
  const { child, stdout, stderr } = spawnNode(env, CLI, args);
  child.stdin.end(input);
  return new Promise((resolveRun) => child.once('close', (code) => resolveRun({ code, stdout: stdout(), stderr: stderr() })));
}

/** A long-running `payments` process (listen) with its output so far. */
export interface CliProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  waitFor(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startCli(env: NodeJS.ProcessEnv, args: string[]): CliProcess {
  const { child, stdout, stderr } = spawnNode(env, CLI, args);
  const closed = new Promise<number | null>((resolveClose) => child.once('close', (code) => resolveClose(code)));
  return {
    child,
    stdout,
    stderr,
    async waitFor(predicate, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.\nstdout:\n${stdout()}\nstderr:\n${stderr()}`);
        if (child.exitCode !== null) throw new Error(`payments exited (${child.exitCode}) before ${what}.\nstdout:\n${stdout()}\nstderr:\n${stderr()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop(signal = 'SIGTERM') {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await closed;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A merchant made with the operator CLI; its test key. */
export async function createMerchant(serviceEnv: NodeJS.ProcessEnv, name: string, schedule = 'manual'): Promise<string> {
  return (await createMerchantWithAdmin(serviceEnv, { name, password: 'correct horse battery staple' }, ['--schedule', schedule])).testApiKey;
}
