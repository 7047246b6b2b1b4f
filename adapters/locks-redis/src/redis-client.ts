import { createClient } from 'redis';
import { redisUnavailable } from './redis-command';

/** The node-redis client the Redis adapters take. */
export type RedisClient = ReturnType<typeof createClient>;

export interface RedisConnectionOptions {
  /**
   * How long the first connection may take, handshake included, before `connectRedis` gives up
   * (default 2000 ms). A service that cannot reach Redis at start should say so, not hang.
   */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts once connected (default 2000 ms). */
  maxReconnectDelayMs?: number;
  /** Sees every connection error; without it they are dropped (the client never crashes the process). */
  onError?: (error: Error) => void;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
const DEFAULT_MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * Opens a client for the Redis adapters. Commands issued while disconnected fail at once (the
 * adapters turn that into CoreError `unavailable`) instead of queueing until Redis returns, and the
 * client keeps reconnecting in the background with capped, jittered backoff. Rejects with CoreError
 * `api_error` (unavailable) when Redis cannot be reached within `connectTimeoutMs`.
 */
export async function connectRedis(url: string, options: RedisConnectionOptions = {}): Promise<RedisClient> {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const maxDelayMs = options.maxReconnectDelayMs ?? DEFAULT_MAX_RECONNECT_DELAY_MS;
  const startedAt = Date.now();
  let connected = false;
  const client: RedisClient = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries: number): number | false => {
        const delay = backoff(retries, maxDelayMs);
        // Before the first success, retry only within the start-up budget, then let connect() fail.
        if (!connected && Date.now() - startedAt + delay >= connectTimeoutMs) return false;
        return delay;
      },
    },
  });
  // node-redis emits 'error' for every failed attempt; an EventEmitter without a listener would
  // turn that into an uncaught exception and end the process.
  client.on('error', (error: Error) => options.onError?.(error));
  client.on('ready', () => {
    connected = true;
  });

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    // The socket's own timeout covers TCP connect only; this also covers a server that accepts
    // and then never answers the handshake.
    timer = setTimeout(() => reject(new Error(`no answer within ${connectTimeoutMs} ms`)), connectTimeoutMs + 100);
  });
  const connecting = client.connect();
  connecting.catch(() => undefined);
  try {
    await Promise.race([connecting, deadline]);
  } catch (error) {
    // unref first: an attempt still in flight must not keep the process alive.
    client.unref();
    if (client.isOpen) client.destroy();
    throw redisUnavailable(error);
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/**
 * Closes a client whatever its state, for shutdown: lets commands in flight finish for up to
 * `graceMs` (default 1000), and never waits longer, even on a server that stopped answering.
 */
export async function disconnectRedis(client: RedisClient, graceMs = 1_000): Promise<void> {
  if (!client.isOpen) return;
  if (!client.isReady) {
    // Reconnecting: nothing is in flight, and close() would wait for a connection that may never come.
    client.destroy();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    client.close().then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    }),
  ]);
  clearTimeout(timer);
  if (closed) return;
  // close() waits for replies that will not come. destroy() rejects them but, the client being
  // marked closed already, refuses to drop the socket; unref it so it cannot hold the process up.
  try {
    client.destroy();
  } catch {
    // ClientClosedError, expected here.
  }
  client.unref();
}

/** Exponential from 50 ms, capped, with jitter so a fleet of API processes does not reconnect in step. */
function backoff(retries: number, maxDelayMs: number): number {
  const exponential = Math.min(maxDelayMs, 50 * 2 ** Math.min(retries, 16));
  return Math.round(exponential / 2 + Math.random() * (exponential / 2));
}
