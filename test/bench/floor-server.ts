import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Hapi from '@hapi/hapi';
import { DuplicateError, type FloorStore, type IntentRow, type KeyRow } from './floor-store';

/**
 * The floor: the least a correct implementation of each measured route must do, as a bare
 * node:http server over floor-store.ts. Same paths as the service, so both sides get the same
 * request bytes but the API key. Exactly:
 * - every route but the FX quote: one primary-key read of the key's prefix, SHA-256 of the key
 *   compared in constant time (401 otherwise);
 * - create: JSON parse and the checks of amount, currency and merchant_order_id (400), the
 *   request's fingerprint, one primary-key read of the idempotency row (a finished row with the
 *   same fingerprint is answered as stored, Idempotent-Replayed: true, nothing written), then one
 *   transaction of claim, intent, checkout session (its token's digest only) and the stored answer;
 * - get: one read by id, merchant and mode; list: one index range read of limit + 1 rows;
 * - the FX quote (no I/O): parse and check the query string, answer JSON, no auth (today's
 *   hand-written handler), here and on a bare Hapi server (startBareHapi).
 */

const INTENTS_PATH = '/v1/payment_intents';
export const FX_PATH = '/v1/fx/quotes';
const CURRENCY = /^[A-Z]{3}$/;
/** The service's default expiry of an intent. */
const EXPIRES_IN_MS = 3600 * 1000;
const CHECKOUT_BASE = 'http://localhost/c/';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), ...headers }).end(body);
}

const error = (code: string): string => JSON.stringify({ error: { code } });

/** The FX quote's answer to a query string, as both no-I/O floors give it. */
export function fxQuote(from: unknown, to: unknown, amount: unknown): { status: number; body: Record<string, unknown> } {
  if (typeof from !== 'string' || typeof to !== 'string' || typeof amount !== 'string') return { status: 400, body: { error: 'invalid' } };
  if (!CURRENCY.test(from) || !CURRENCY.test(to) || !/^[0-9]{1,16}$/.test(amount)) return { status: 400, body: { error: 'invalid' } };
  return { status: 200, body: { indicative: true, from, to, rate: '1', estimated: { amount: Number(amount), currency: to } } };
}

const iso = (value: Date | string): string => (typeof value === 'string' ? value : value.toISOString());

function present(row: IntentRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'payment_intent',
    mode: row.mode,
    amount: Number(row.amount),
    currency: row.currency,
    merchant_order_id: row.merchant_order_id,
    status: row.status,
    created: iso(row.created),
    expires_at: iso(row.expires_at),
    metadata: typeof row.metadata === 'string' ? JSON.parse(row.metadata) : (row.metadata ?? {}),
  };
}

/** The key row of a valid `Authorization: Bearer <key>`, else undefined. */
async function authenticate(store: FloorStore, req: IncomingMessage): Promise<KeyRow | undefined> {
  const header = req.headers.authorization;
  if (header === undefined || !header.startsWith('Bearer ')) return undefined;
  const key = header.slice('Bearer '.length);
  if (key.length < 16) return undefined;
  const row = await store.apiKey(key.slice(0, 16));
  if (row === undefined || row.digest.length !== 64) return undefined;
  return timingSafeEqual(createHash('sha256').update(key).digest(), Buffer.from(row.digest, 'hex')) ? row : undefined;
}

async function create(store: FloorStore, account: KeyRow, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req);
  let input: unknown;
  try {
    input = JSON.parse(raw);
  } catch {
    return send(res, 400, error('invalid_json'));
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return send(res, 400, error('invalid_json'));
  const { amount, currency, merchant_order_id: orderId } = input as Record<string, unknown>;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1) return send(res, 400, error('invalid_amount'));
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) return send(res, 400, error('invalid_currency'));
  if (typeof orderId !== 'string' || orderId === '' || orderId.length > 255) return send(res, 400, error('invalid_merchant_order_id'));
  const key = req.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '' || key.length > 255) return send(res, 400, error('idempotency_key_required'));

  const fingerprint = sha256(`POST ${INTENTS_PATH} ${raw}`);
  const stored = await store.idempotent(account.merchant_id, account.mode, key);
  if (stored !== undefined) {
    if (stored.fingerprint !== fingerprint) return send(res, 422, error('idempotency_key_reused'));
    if (stored.status === null || stored.body === null) return send(res, 409, error('idempotency_in_progress'));
    return send(res, stored.status, stored.body, { 'idempotent-replayed': 'true' });
  }

  const created = new Date();
  const expiresAt = new Date(created.getTime() + EXPIRES_IN_MS);
  const intentId = `pi_${randomBytes(12).toString('hex')}`;
  const token = randomBytes(32).toString('base64url');
  const answer = JSON.stringify({
    id: intentId,
    object: 'payment_intent',
    mode: account.mode,
    amount,
    currency,
    merchant_order_id: orderId,
    status: 'created',
    created: created.toISOString(),
    expires_at: expiresAt.toISOString(),
    metadata: {},
    checkout_url: `${CHECKOUT_BASE}${token}`,
  });
  try {
    await store.create({
      merchantId: account.merchant_id,
      mode: account.mode,
      idempotencyKey: key,
      fingerprint,
      intentId,
      amount,
      currency,
      merchantOrderId: orderId,
      created,
      expiresAt,
      tokenHash: sha256(token),
      answer,
    });
  } catch (failure) {
    if (failure instanceof DuplicateError) return send(res, 409, error('conflict'));
    throw failure;
  }
  return send(res, 201, answer);
}

function listLimit(query: URLSearchParams): number | undefined {
  const text = query.get('limit');
  if (text === null) return 10;
  if (!/^[0-9]{1,3}$/.test(text)) return undefined;
  const limit = Number(text);
  return limit >= 1 && limit <= 100 ? limit : undefined;
}

/** The floor's node:http server over `store`. */
export function createFloorServer(store: FloorStore): Server {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const query = (): URLSearchParams => new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1));
    if (req.method === 'GET' && path === FX_PATH) {
      const params = query();
      const quote = fxQuote(params.get('from') ?? '', params.get('to') ?? '', params.get('amount') ?? '');
      return send(res, quote.status, JSON.stringify(quote.body));
    }
    const account = await authenticate(store, req);
    if (account === undefined) return send(res, 401, error('unauthorized'));
    if (req.method === 'POST' && path === INTENTS_PATH) return create(store, account, req, res);
    if (req.method === 'GET' && path === INTENTS_PATH) {
      const limit = listLimit(query());
      if (limit === undefined) return send(res, 400, error('invalid_limit'));
      const rows = await store.intents(account.merchant_id, account.mode, limit + 1);
      return send(res, 200, JSON.stringify({ object: 'list', data: rows.slice(0, limit).map(present), has_more: rows.length > limit }));
    }
    if (req.method === 'GET' && path.startsWith(`${INTENTS_PATH}/`)) {
      const id = path.slice(INTENTS_PATH.length + 1);
      const row = id === '' || id.length > 40 ? undefined : await store.intent(id, account.merchant_id, account.mode);
      return row === undefined ? send(res, 404, error('not_found')) : send(res, 200, JSON.stringify(present(row)));
    }
    return send(res, 404, error('not_found'));
  };

  return createServer((req, res) => {
    handle(req, res).catch((failure: unknown) => {
      process.stderr.write(`floor: ${failure instanceof Error ? failure.message : String(failure)}\n`);
      if (!res.headersSent) send(res, 500, error('floor_failed'));
    });
  });
}

/**
 * The no-I/O floor on Hapi: a bare `@hapi/hapi` server (no plugins, no auth, no validation
 * library) with the one FX route answering the same JSON from the same query as the node:http one.
 */
export async function startBareHapi(): Promise<Hapi.Server> {
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });
  server.route({
    method: 'GET',
    path: FX_PATH,
    handler: (request, h) => {
      const quote = fxQuote(request.query['from'], request.query['to'], request.query['amount']);
      return h.response(quote.body).code(quote.status);
    },
  });
  await server.start();
  return server;
}
