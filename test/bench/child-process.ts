import { fork, type ChildProcess } from 'node:child_process';
import type { ChildMessage, ParentMessage } from './ipc';

/** A server the bench forked, with what it reported when it came up. */
export interface Child<T> {
  readonly ready: T;
  /** Its process id, for its CPU time (/proc/<pid>/stat). */
  readonly pid: number;
  /** Asks the child to close its server and pools; kills it if it has not exited in time. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

// Every child this process forked and has not seen exit, for the watchdog's last resort.
const started = new Set<ChildProcess>();

/** Kills (SIGKILL, by pid) every child this bench started that is still running. */
export function killStartedChildren(): void {
  for (const child of started) if (!hasExited(child)) child.kill('SIGKILL');
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function waitForReady<T>(name: string, child: ChildProcess): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fail = (error: Error): void => {
      clearTimeout(timer);
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`${name} did not report ready within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.on('message', (message: ChildMessage<T>) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.payload);
      } else fail(new Error(`${name} failed to start:\n${message.message}`));
    });
    child.once('exit', (code, signal) => fail(new Error(`${name} exited before it was ready (code ${code}, signal ${signal})`)));
    child.once('error', fail);
  });
}

/**
 * Forks a compiled server entry (one of *-main.js) with its own environment. Servers run in their
 * own processes so autocannon, in this process, does not share their event loop.
 */
export async function startChild<T>(name: string, entry: string, env: NodeJS.ProcessEnv, execArgv: readonly string[] = []): Promise<Child<T>> {
  const child = fork(entry, [], { env, execArgv: [...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  started.add(child);
  child.once('exit', () => started.delete(child));
  let ready: T;
  try {
    ready = await waitForReady<T>(name, child);
  } catch (error) {
    if (!hasExited(child)) child.kill('SIGKILL');
    throw error;
  }
  const { pid } = child;
  if (pid === undefined) throw new Error(`${name} has no pid although it reported ready`);
  return {
    ready,
    pid,
    stop: async () => {
      if (hasExited(child)) return;
      const stop: ParentMessage = { type: 'stop' };
      if (child.connected) child.send(stop);
      if (await waitForExit(child, STOP_TIMEOUT_MS)) return;
      child.kill('SIGKILL');
      await waitForExit(child, STOP_TIMEOUT_MS);
      throw new Error(`${name} did not stop within ${STOP_TIMEOUT_MS / 1000} s and was killed`);
    },
  };
}
