import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Knex } from 'knex';
import { StatementReplayer, type StatementTemplate } from './statements';

/** Where the baseline's routes live; the scenarios address them by these paths. */
export const BASELINE_PATHS = {
  create: '/baseline/payment_intents',
  replay: '/baseline/replay',
  intents: '/baseline/payment_intents',
  noIo: '/baseline/fx/quotes',
} as const;

/** Scenario id → the statements the service ran for one of its requests. */
export type Templates = Readonly<Record<string, StatementTemplate>>;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
}

function createInputs(req: IncomingMessage, text: string): Record<string, string> {
  const body = JSON.parse(text) as { merchant_order_id?: unknown };
  const key = req.headers['idempotency-key'];
  return { idempotencyKey: typeof key === 'string' ? key : '', orderId: typeof body.merchant_order_id === 'string' ? body.merchant_order_id : '' };
}

const CURRENCY = /^[A-Z]{3}$/;

/**
 * The floor the service is measured against: a bare node:http server (no Hapi, no auth, no
 * validation library, no presenters) on the same knex configuration (createKnex) that, per
 * request, runs the very statements the service ran for a request of the same scenario (captured
 * from the service's knex events, with fresh ids and the request's own key, order id or intent
 * id) in the same transaction boundaries, and answers the service's answer.
 */
export function createBaselineServer(knex: Knex, templates: Templates): Server {
  const replayers = new Map(Object.entries(templates).map(([id, template]) => [id, new StatementReplayer(template)]));
  const replayer = (id: string): StatementReplayer => {
    const found = replayers.get(id);
    if (!found) throw new Error(`baseline: no statement template for '${id}'`);
    return found;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    if (req.method === 'POST' && (path === BASELINE_PATHS.create || path === BASELINE_PATHS.replay)) {
      const inputs = createInputs(req, await readBody(req));
      const answer = await replayer(path === BASELINE_PATHS.create ? 'create' : 'replay').run(knex, inputs);
      return send(res, answer.status, answer.body);
    }
    if (req.method === 'GET' && path === BASELINE_PATHS.intents) {
      const answer = await replayer('list').run(knex, {});
      return send(res, answer.status, answer.body);
    }
    if (req.method === 'GET' && path.startsWith(`${BASELINE_PATHS.intents}/`)) {
      const answer = await replayer('get').run(knex, { intentId: path.slice(BASELINE_PATHS.intents.length + 1) });
      return send(res, answer.status, answer.body);
    }
    if (req.method === 'GET' && path === BASELINE_PATHS.noIo) {
      // What a hand-written handler would do: parse and check the query, answer JSON.
      const params = new URLSearchParams(query < 0 ? '' : url.slice(query + 1));
      const from = params.get('from') ?? '';
      const to = params.get('to') ?? '';
      const amount = params.get('amount') ?? '';
      if (!CURRENCY.test(from) || !CURRENCY.test(to) || !/^[0-9]{1,16}$/.test(amount)) return send(res, 400, '{"error":"invalid"}');
      return send(res, 200, JSON.stringify({ indicative: true, from, to, rate: '1', estimated: { amount: Number(amount), currency: to } }));
    }
    return send(res, 404, '{"error":"not found"}');
  };

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`baseline: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) send(res, 500, '{"error":"baseline failed"}');
    });
  });
}
