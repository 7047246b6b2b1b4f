import { generateKeyPairSync, randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Event, WebhookPublicKey } from '@payments/sdk';
import { CliError, EXIT } from './exit-codes.js';

/** The Ed25519 key `listen` signs v2 with: made at start, never written anywhere, gone when it stops. */
export interface ListenKey {
  /** Shaped like the service's key ids (`key_` + 26 base32), marked LISTEN so a log shows where it came from. */
  id: string;
  /** PKCS#8 PEM, as the SDK's generateTestHeader takes it. */
  privateKeyPem: string;
  /** The raw 32-byte public key, base64, as GET /v1/webhook_public_keys lists it. */
  publicKey: string;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function generateListenKey(): ListenKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  // The SPKI DER of an Ed25519 key is a 12-byte header and the 32 raw bytes.
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
  const suffix = Array.from({ length: 20 }, () => BASE32[randomInt(BASE32.length)]).join('');
  return { id: `key_LISTEN${suffix}`, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKey: raw.toString('base64') };
}

/** The port `listen` serves its public key on unless told otherwise: the API's 4242, plus one. */
export const DEFAULT_KEYS_PORT = 4243;

export interface KeysServer {
  /** What a Payments client's `baseUrl` is set to, so its constructEventAsync fetches this key. */
  baseUrl: string;
  /** Serves `event` at `GET /v1/events/{id}` from now on: call it before forwarding the event. */
  remember(event: Event): void;
  close(): Promise<void>;
}

/** Forwarded events served back, at most (the oldest go first). */
const REMEMBERED_EVENTS = 1_000;

/**
 * Serves `GET /v1/webhook_public_keys` with the run's key, in the API's shape, on 127.0.0.1: a
 * handler verifying v2 with `constructEventAsync` gets its keys from here instead of the API,
 * which does not know this key. Only the public half is served, to any caller (it is public).
 * It also serves `GET /v1/events/{id}` of the events this run forwarded (the API's own bodies):
 * the platform key is the same for every merchant, so the SDK checks a v2-verified event names
 * its client's merchant, which a client not given its `account` learns by reading the first such
 * event back. With the default port taken (a second listen), another one is used and said so; a
 * port asked for with --keys-port must be free.
 */
export async function serveListenKey(key: ListenKey, port: number | undefined, log: (message: string) => void): Promise<KeysServer> {
  const list = {
    object: 'list',
    data: [{ id: key.id, object: 'webhook_public_key', algorithm: 'ed25519', public_key: key.publicKey } satisfies WebhookPublicKey],
    has_more: false,
  };
  const events = new Map<string, Event>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const event = request.method === 'GET' && path.startsWith('/v1/events/') ? events.get(decodeURIComponent(path.slice('/v1/events/'.length))) : undefined;
    const [status, body] =
      request.method === 'GET' && path === '/v1/webhook_public_keys'
        ? [200, list]
        : event
          ? [200, event]
          : [
              404,
              {
                error: {
                  code: 'resource_not_found',
                  message:
                    'payments listen serves GET /v1/webhook_public_keys and the events it forwarded (GET /v1/events/{id}) only; other requests go to the API.',
                },
              },
            ];
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  });
  try {
    await listenOn(server, port ?? DEFAULT_KEYS_PORT);
  } catch (error) {
    if (port !== undefined || !isAddressInUse(error))
      throw new CliError(`Cannot serve the v2 key on 127.0.0.1:${port ?? DEFAULT_KEYS_PORT}: ${messageOf(error)}.`, EXIT.usage);
    await listenOn(server, 0);
    log(`Port ${DEFAULT_KEYS_PORT} is taken (another listen?); the v2 key is served on another port below (--keys-port chooses one).`);
  }
  const address = server.address();
  return {
    baseUrl: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : port}`,
    remember: (event) => {
      events.delete(event.id);
      events.set(event.id, event);
      if (events.size > REMEMBERED_EVENTS) events.delete(events.keys().next().value ?? '');
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function listenOn(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'EADDRINUSE';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
