import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { listeningPort } from '@payments/node-runtime';
import { spawnUntilListening } from './process';
import { selfSigned } from './self-signed';

export interface SandboxProcess {
  readonly url: string;
  output(): string;
  stop(): Promise<number | null>;
}

export interface SandboxCredentials {
  /** The Bearer key the service's rest channel sends. */
  readonly apiKey: string;
  /** Keys the HMAC of the sandbox's callbacks. */
  readonly callbackSecret: string;
  /** How long after payment the sandbox settles an order (SANDBOX_SETTLE_AFTER_MS). */
  readonly settleAfterMs: number;
}

/** Starts the rest channel sandbox (`npm run start:sandbox`) on a free port and waits until it listens. */
export async function startSandbox(credentials: SandboxCredentials): Promise<SandboxProcess> {
  const env = {
    PATH: process.env.PATH,
    SANDBOX_PORT: '0',
    SANDBOX_API_KEY: credentials.apiKey,
    SANDBOX_CALLBACK_SECRET: credentials.callbackSecret,
    SANDBOX_SETTLE_AFTER_MS: String(credentials.settleAfterMs),
  };
  const { url, output, stop } = await spawnUntilListening(env, 'apps/channel-sandbox/dist/src/main.js', [], 'sandbox listening');
  return { url, output, stop };
}

export interface TlsFront {
  /** `https://127.0.0.1:<port>`: the sandbox behind TLS. */
  readonly url: string;
  /** The front's self-signed certificate (its own CA) in a file, for NODE_EXTRA_CA_CERTS. */
  readonly caFile: string;
  close(): Promise<void>;
}

/**
 * An HTTPS front for a plain-HTTP server on this machine: the live rest channel takes only https,
 * so a live-mode run puts the sandbox behind this, and the service trusts the front's certificate
 * through NODE_EXTRA_CA_CERTS.
 */
export async function startTlsFront(targetUrl: string): Promise<TlsFront> {
  const target = new URL(targetUrl);
  const pems = await selfSigned({ ip: '127.0.0.1' }, 'tls-front-');
  const { dir, caFile } = pems;
  const sockets = new Set<Socket>();
  const server = createTlsServer({ key: pems.key, cert: pems.cert }, (client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `https://127.0.0.1:${listeningPort(server)}`,
    caFile,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
