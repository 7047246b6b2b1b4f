import { randomUUID } from 'node:crypto';
import net from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { connectRedis, disconnectRedis, type RedisClient } from '@payments/locks-redis';
import { listeningPort } from '@payments/node-runtime';

/** Set to run the Redis half of the contract suites, e.g. redis://127.0.0.1:6379. */
export const redisTestUrl: string | undefined = process.env['PAYMENTS_TEST_REDIS_URL'] || undefined;

/** A prefix no other run shares, so parallel runs on one Redis never see each other's keys. */
export function uniqueKeyPrefix(suite: string): string {
  return `payments-test:${suite}:${randomUUID()}:`;
}

/** Deletes every key under `prefix`; SCAN rather than KEYS so a shared Redis is never blocked. */
export async function deleteKeys(client: RedisClient, prefix: string): Promise<number> {
  let deleted = 0;
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) deleted += await client.del(keys);
  }
  return deleted;
}

/**
 * A TCP relay in front of Redis that a test can cut (the server goes away) or blackhole (the
 * connection stays up but nothing answers), to see how the adapters behave when Redis fails.
 */
export class TcpRelay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private silent = false;
  private handshakesToDrop = 0;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Listens again on the same port after `cut()`, so a reconnecting client finds it. */
  async listen(): Promise<void> {
    this.silent = false;
    const server = net.createServer((downstream) => {
      const upstream = net.connect(this.target);
      for (const socket of [downstream, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          downstream.destroy();
          upstream.destroy();
        });
      }
      const dropHandshake = this.handshakesToDrop > 0;
      if (dropHandshake) this.handshakesToDrop -= 1;
      downstream.on('data', (chunk) => {
        if (dropHandshake) return downstream.destroy();
        return this.silent || upstream.write(chunk);
      });
      upstream.on('data', (chunk) => this.silent || downstream.write(chunk));
      downstream.on('close', () => upstream.destroy());
      upstream.on('close', () => downstream.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = listeningPort(server);
    this.server = server;
  }

  /**
   * The next `count` connections are dropped as soon as the client sends its first bytes (its
   * handshake): a server that accepts and goes away again, as one restarting does.
   */
  dropNextHandshakes(count: number): void {
    this.handshakesToDrop = count;
  }

  /** Stops relaying in both directions while keeping every connection open. */
  blackhole(): void {
    this.silent = true;
  }

  /** Drops every connection and stops listening: to the client, Redis is gone. */
  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Resolves once `condition` holds, or rejects after `timeoutMs`. */
export async function eventually(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface RedisSuite {
  readonly url: string;
  readonly target: { host: string; port: number };
  readonly keyPrefix: string;
  /** The client opened before the suite; its keys under `keyPrefix` are deleted after it. */
  readonly shared: () => RedisClient;
  /** Opens another client (to `to`, e.g. a relay); every client is closed after the suite. */
  readonly connect: (to?: string) => Promise<RedisClient>;
  /** A client through a fresh relay to this Redis, which is cut when the test `t` ends. */
  readonly relayed: (t: ExecutionContext) => Promise<{ readonly relay: TcpRelay; readonly client: RedisClient }>;
}

/**
 * Registers the before/after hooks of a Redis test file: one shared client, more on demand, and
 * the clean-up of every key the suite wrote.
 */
export function redisSuite(url: string, suite: string): RedisSuite {
  const parsed = new URL(url);
  const keyPrefix = uniqueKeyPrefix(suite);
  const clients: RedisClient[] = [];
  let shared: RedisClient | undefined;
  const connect = async (to = url): Promise<RedisClient> => {
    const client = await connectRedis(to);
    clients.push(client);
    return client;
  };
  test.before(async () => {
    shared = await connect();
  });
  test.after.always(async () => {
    if (shared?.isReady) await deleteKeys(shared, keyPrefix);
    await Promise.all(clients.map((client) => disconnectRedis(client)));
  });
  const target = { host: parsed.hostname, port: Number(parsed.port || 6379) };
  return {
    url,
    target,
    keyPrefix,
    shared: () => {
      if (!shared) throw new Error('the Redis suite has not connected yet');
      return shared;
    },
    connect,
    relayed: async (t) => {
      const relay = new TcpRelay(target);
      await relay.listen();
      t.teardown(() => relay.cut());
      return { relay, client: await connect(relay.url) };
    },
  };
}
