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
 *   request's fingerprint, then one transaction of claim, intent, checkout session (its token's
 *   digest only) and the stored answer; no read first (a duplicate key is read after the refusal);
 * - replay (its own path, REPLAY_PATH, the same request bytes): the same checks, then one
 *   primary-key read of the idempotency row, answered as stored with Idempotent-Replayed: true;
 * - get: one read by id, merchant and mode; list: one index range read of limit + 1 rows;
 * - the FX quote (no I/O): parse and check the query string, answer JSON, no auth (today's
 *   hand-written handler), here and on a bare Hapi server (startBareHapi).
 */

export const INTENTS_PATH = '/v1/payment_intents';
/** The replay floor: what a repeat of a finished create needs at least, nothing written. */
export const REPLAY_PATH = '/floor/replay/v1/payment_intents';
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

/** What a floor route answers, whichever server (node:http or Hapi) sends it. */
export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(answer.body)), ...answer.headers }).end(answer.body);
}

const error = (code: string): string => JSON.stringify({ error: { code } });
const failed = (status: number, code: string): Answer => ({ status, body: error(code) });
export const UNAUTHORIZED: Answer = failed(401, 'unauthorized');
export const NOT_FOUND: Answer = failed(404, 'not_found');

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
export async function authenticate(store: FloorStore, header: string | undefined): Promise<KeyRow | undefined> {
  if (header === undefined || !header.startsWith('Bearer ')) return undefined;
  const key = header.slice('Bearer '.length);
  if (key.length < 16) return undefined;
  const row = await store.apiKey(key.slice(0, 16));
  if (row === undefined || row.digest.length !== 64) return undefined;
  return timingSafeEqual(createHash('sha256').update(key).digest(), Buffer.from(row.digest, 'hex')) ? row : undefined;
}

/** The stored answer of the key, as a repeat is told it; undefined when the key is unknown. */
async function storedAnswer(store: FloorStore, account: KeyRow, key: string, fingerprint: string): Promise<Answer | undefined> {
  const stored = await store.idempotent(account.merchant_id, account.mode, key);
  if (stored === undefined) return undefined;
  if (stored.fingerprint !== fingerprint) return failed(422, 'idempotency_key_reused');
  if (stored.status === null || stored.body === null) return failed(409, 'idempotency_in_progress');
  return { status: stored.status, body: stored.body, headers: { 'idempotent-replayed': 'true' } };
}

/** A create (or, with `replayOnly`, the replay floor) of the raw request body. */
export async function createIntent(store: FloorStore, account: KeyRow, raw: string, key: unknown, replayOnly: boolean): Promise<Answer> {
  let input: unknown;
  try {
    input = JSON.parse(raw);
  } catch {
    return failed(400, 'invalid_json');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return failed(400, 'invalid_json');
  const { amount, currency, merchant_order_id: orderId }: { amount?: unknown; currency?: unknown; merchant_order_id?: unknown } = input;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1) return failed(400, 'invalid_amount');
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) return failed(400, 'invalid_currency');
  if (typeof orderId !== 'string' || orderId === '' || orderId.length > 255) return failed(400, 'invalid_merchant_order_id');
  if (typeof key !== 'string' || key === '' || key.length > 255) return failed(400, 'idempotency_key_required');

  const fingerprint = sha256(`POST ${INTENTS_PATH} ${raw}`);
  if (replayOnly) return (await storedAnswer(store, account, key, fingerprint)) ?? NOT_FOUND;

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
    if (failure instanceof DuplicateError) return (await storedAnswer(store, account, key, fingerprint)) ?? failed(409, 'conflict');
    throw failure;
  }
  return { status: 201, body: answer };
}

/** The list's `limit` query parameter (null: absent). */
export async function listIntents(store: FloorStore, account: KeyRow, limitText: string | null): Promise<Answer> {
  const limit = listLimit(limitText);
  if (limit === undefined) return failed(400, 'invalid_limit');
  const rows = await store.intents(account.merchant_id, account.mode, limit + 1);
  return { status: 200, body: JSON.stringify({ object: 'list', data: rows.slice(0, limit).map(present), has_more: rows.length > limit }) };
}

export async function getIntent(store: FloorStore, account: KeyRow, id: string): Promise<Answer> {
  const row = id === '' || id.length > 40 ? undefined : await store.intent(id, account.merchant_id, account.mode);
  return row === undefined ? NOT_FOUND : { status: 200, body: JSON.stringify(present(row)) };
}

function listLimit(text: string | null): number | undefined {
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
      return send(res, { status: quote.status, body: JSON.stringify(quote.body) });
    }
    const account = await authenticate(store, req.headers.authorization);
    if (account === undefined) return send(res, UNAUTHORIZED);
    if (req.method === 'POST' && (path === INTENTS_PATH || path === REPLAY_PATH)) {
      return send(res, await createIntent(store, account, await readBody(req), req.headers['idempotency-key'], path === REPLAY_PATH));
    }
    if (req.method === 'GET' && path === INTENTS_PATH) return send(res, await listIntents(store, account, query().get('limit')));
    if (req.method === 'GET' && path.startsWith(`${INTENTS_PATH}/`)) return send(res, await getIntent(store, account, path.slice(INTENTS_PATH.length + 1)));
    return send(res, NOT_FOUND);
  };

  return createServer((req, res) => {
    handle(req, res).catch((failure: unknown) => {
      process.stderr.write(`floor: ${failure instanceof Error ? failure.message : String(failure)}\n`);
      if (!res.headersSent) send(res, failed(500, 'floor_failed'));
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
