/** Messages between the bench (parent) and the servers it forks (children). */

/** What the service child reports once it listens. */
export interface ServiceReady {
  readonly port: number;
  /** The bench's control port: statement counters and capture (service-main.ts). */
  readonly controlPort: number;
  /** The same Hapi stack with memoised auth lookups, for the no-I/O scenario. */
  readonly noIoPort: number;
  readonly merchantId: string;
  readonly testKey: string;
  /** Whether promise hooks are on in the service process, once it has run a unit of work. */
  readonly promiseHooks: boolean;
}

/** What the floor child reports once it listens (floor-main.ts). */
export interface FloorReady {
  /** The node:http floor: every route, the no-I/O FX quote included. */
  readonly port: number;
  /** The bare Hapi server with the one no-I/O route. */
  readonly hapiPort: number;
  /** The floor's statement counters and row count (`GET /counters`), never the measured port. */
  readonly controlPort: number;
  /** The floor's own test key (each side authenticates its own). */
  readonly apiKey: string;
  /** Whether promise hooks are on in the floor process (they must not be: see floor-control.ts). */
  readonly promiseHooks: boolean;
  /** With the ladder: the floor's routes on bare Hapi over the driver store, and over knex. */
  readonly ladder?: { readonly hapiDriverPort: number; readonly hapiKnexPort: number };
}

/** What the ladder's unit-of-work process reports once it listens (ladder-main.ts). */
export interface LadderReady {
  /** The floor's routes on bare Hapi over knex through a KnexContext. */
  readonly port: number;
  readonly controlPort: number;
  /** Whether promise hooks are on in that process (they must be). */
  readonly promiseHooks: boolean;
}

export type ChildMessage<T> = { readonly type: 'ready'; readonly payload: T } | { readonly type: 'failed'; readonly message: string };
export type ParentMessage = { readonly type: 'stop' };

/** How long a child may take to close its server and pools before it exits regardless. */
const CLOSE_GRACE_MS = 10_000;

function send<T>(message: ChildMessage<T>): void {
  // process.send exists only when forked with an IPC channel; without one nobody is listening.
  process.send?.(message);
}

/**
 * Child side: tells the parent the server is up, then closes when told to stop or when the
 * parent goes away (so a crashed or killed bench leaves no server behind).
 */
export function serveUntilStopped<T>(payload: T, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    // A close that hangs (a stuck pool) must not keep the child alive forever.
    setTimeout(() => process.exit(1), CLOSE_GRACE_MS).unref();
    try {
      await close();
    } catch (error) {
      process.stderr.write(`bench child: close failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    }
    // The IPC channel alone keeps the event loop alive; letting go of it lets the child exit.
    if (process.connected) process.disconnect();
  };
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') void shutdown();
  });
  process.once('disconnect', () => void shutdown());
  send({ type: 'ready', payload });
}

/** Child side: reports a start-up failure and exits non-zero (once the message is on its way). */
export function failStart(error: unknown): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`bench child failed to start: ${message}\n`);
  setTimeout(() => process.exit(1), 1_000).unref();
  if (!process.send) process.exit(1);
  const failed: ChildMessage<never> = { type: 'failed', message };
  process.send(failed, () => process.exit(1));
}
