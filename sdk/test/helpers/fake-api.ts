import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listeningPort } from '@payments/node-runtime';
import { Payments, type PaymentsConfig } from '@payments/sdk';

/** A request as the fake API received it. */
export interface Received {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * What the fake answers: a status and JSON (or `rawBody`, sent as written: JSON.stringify cannot
 * write an integer past 2^53 − 1), with headers; `reset` drops the connection; `hang` never answers.
 */
export type Reply = { status: number; body?: unknown; rawBody?: string; headers?: Record<string, string> } | 'reset' | 'hang';

export interface FakeApi {
  readonly baseUrl: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on port 0 whose answers a test scripts: `reply` sees each request (and how
 * many came before it) and says what to answer.
 */
export async function fakeApi(reply: (request: Received, index: number) => Reply | Promise<Reply>): Promise<FakeApi> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    const respond = async (): Promise<void> => {
      const request: Received = { method: req.method ?? '', url: new URL(req.url ?? '/', 'http://fake'), headers: req.headers, body };
      received.push(request);
      const answer = await reply(request, received.length - 1);
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_${received.length}`, ...answer.headers });
      res.end(answer.rawBody ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
    };
    req.on('end', () => void respond());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = listeningPort(server);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An API error body as the service renders it. */
export function apiError(code: string, message = code, param?: string): unknown {
  return { error: { code, message, ...(param ? { param } : {}), request_id: 'req_body' } };
}

export const KEY = 'sk_test_0123456789abcdefghijklmnop';

/** A payment intent as the API shows it. */
export function intent(id: string, status = 'created'): Record<string, unknown> {
  return {
    id,
    object: 'payment_intent',
    mode: 'test',
    amount: 100,
    currency: 'THB',
    merchant_order_id: `o-${id}`,
    status,
    created: '2026-09-01T00:00:00Z',
    metadata: {},
  };
}

/** Retries a test can wait out. */
export const FAST_BACKOFF = { initialDelayMs: 5, maxDelayMs: 20 };

/** Runs `run` with a client of a fake API answering `reply` (fast retries unless `config` says otherwise), closing the fake after. */
export async function withApi(
  reply: (request: Received, index: number) => Reply,
  run: (payments: Payments, api: FakeApi) => Promise<void>,
  config: PaymentsConfig = {},
): Promise<void> {
  const api = await fakeApi(reply);
  try {
    await run(new Payments(KEY, { baseUrl: api.baseUrl, backoff: FAST_BACKOFF, ...config }), api);
  } finally {
    await api.close();
  }
}
