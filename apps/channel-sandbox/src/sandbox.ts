import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A sandbox of the rest channel protocol (docs/channels/rest.md): in-memory orders, the three
 * protocol calls, signed callbacks, and payer endpoints (`/sandbox/orders/{id}/pay|fail|process`)
 * that act as the payer; disputes (query, evidence, signed notices) opened and ruled through
 * `/sandbox/orders/{id}/dispute` and `/sandbox/disputes/{id}/won|lost`, which act as the channel's
 * dispute desk; and refunds (place, query, signed notices), which it reports itself after
 * `refundAfterMs`; and its statement of the money it moved (`GET /v1/statement`). It is written from the protocol document, independently of the adapter,
 * so that the two check each other.
 */
export interface SandboxOptions {
  /** The Bearer key our requests must carry. */
  readonly apiKey: string;
  /** Keys the HMAC of the callbacks. */
  readonly callbackSecret: string;
  /** How long after payment a paid order is settled (default 2000). */
  readonly settleAfterMs?: number;
  /**
   * How long after it is placed a refund is reported (default 1000): succeeded, or failed with
   * `channel_declined` when its amount ends in 06.
   */
  readonly refundAfterMs?: number;
  /** Base of the redirect URLs the sandbox hands out; the listening URL by default. */
  readonly publicUrl?: string;
  /** Tries per callback delivery (default 4) and the timeout of each (default 5000 ms). */
  readonly callbackTries?: number;
  readonly callbackTimeoutMs?: number;
  /** Where the sandbox logs its JSON lines; nothing by default. Never given a key or a secret. */
  readonly log?: (line: Record<string, unknown>) => void;
}

type OrderStatus = 'pending' | 'processing' | 'paid' | 'failed';

interface Order {
  readonly id: string;
  readonly reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly paymentMethod: string;
  readonly callbackUrl: string;
  readonly expiresAt: Date;
  /** The W3C `traceparent` the create came with, echoed on the order's callbacks (docs/channels/rest.md, 6). */
  readonly traceparent?: string;
  status: OrderStatus;
  failureCode?: string;
  settledAt?: Date;
}

/** A W3C trace context header, version 00: nothing else is stored or echoed. */
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

type DisputeStatus = 'opened' | 'under_review' | 'won' | 'lost';

interface Dispute {
  readonly id: string;
  readonly order: Order;
  readonly amount: number;
  readonly currency: string;
  readonly reason: string;
  status: DisputeStatus;
  evidence: Record<string, string>;
}

const MAX_EVIDENCE_KEYS = 100;

type RefundStatus = 'pending' | 'succeeded' | 'failed';

interface Refund {
  readonly id: string;
  readonly order: Order;
  readonly reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly callbackUrl: string;
  status: RefundStatus;
  failureCode?: string;
}

function refundView(refund: Refund): Record<string, unknown> {
  return {
    id: refund.id,
    order_id: refund.order.id,
    reference: refund.reference,
    status: refund.status,
    amount: refund.amount,
    currency: refund.currency,
    ...(refund.failureCode ? { failure_code: refund.failureCode } : {}),
  };
}

/** What the sandbox reports for a refund: success, but for amounts ending in 06, which it declines. */
function refundOutcome(amount: number): { readonly status: 'succeeded' } | { readonly status: 'failed'; readonly failureCode: string } {
  return amount % 100 === 6 ? { status: 'failed', failureCode: 'channel_declined' } : { status: 'succeeded' };
}

function disputeView(dispute: Dispute): Record<string, unknown> {
  return {
    id: dispute.id,
    order_id: dispute.order.id,
    reference: dispute.order.reference,
    status: dispute.status,
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
  };
}

/** One line of the statement (section 6.3): money the sandbox moved, in the order it moved it. */
interface StatementLine {
  readonly type: 'payment' | 'refund' | 'chargeback';
  readonly id: string;
  readonly reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly occurredAt: Date;
}

function statementLineView(line: StatementLine): Record<string, unknown> {
  return { type: line.type, id: line.id, reference: line.reference, amount: line.amount, currency: line.currency, occurred_at: line.occurredAt.toISOString() };
}

const STATEMENT_DEFAULT_LIMIT = 100;
const STATEMENT_MAX_LIMIT = 1000;

export interface CallbackDelivery {
  readonly delivered: boolean;
  readonly attempts: number;
  /** The HTTP status of the last try, when one answered. */
  readonly status?: number;
}

/** The methods of the catalog, the next action each needs, and the currencies each takes. */
const METHODS: Record<string, { readonly nextAction: 'qr_code' | 'redirect'; readonly currencies: readonly string[] }> = {
  promptpay: { nextAction: 'qr_code', currencies: ['THB'] },
  paynow: { nextAction: 'qr_code', currencies: ['SGD'] },
  duitnow: { nextAction: 'qr_code', currencies: ['MYR'] },
  qris: { nextAction: 'qr_code', currencies: ['IDR'] },
  gcash: { nextAction: 'redirect', currencies: ['PHP'] },
  truemoney: { nextAction: 'redirect', currencies: ['THB'] },
  alipay_plus: { nextAction: 'redirect', currencies: ['THB', 'SGD', 'MYR', 'PHP', 'IDR', 'USD'] },
};
const PAYER_FAILURE_CODES = ['insufficient_funds', 'payer_cancelled', 'risk_blocked'];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const MAX_BODY_BYTES = 64 * 1024;
const MAX_TIMER_MS = 2 ** 31 - 1;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function sign(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** Whether `value` is a plain object (not null, not an array), whose fields are then read one by one. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHmac('sha256', 'compare').update(given).digest();
  const b = createHmac('sha256', 'compare').update(expected).digest();
  return timingSafeEqual(a, b);
}

function view(order: Order): Record<string, unknown> {
  return {
    id: order.id,
    reference: order.reference,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    ...(order.failureCode ? { failure_code: order.failureCode } : {}),
    ...(order.settledAt ? { settled_at: order.settledAt.toISOString() } : {}),
  };
}

export class ChannelSandbox {
  private readonly orders = new Map<string, Order>();
  private readonly byReference = new Map<string, Order>();
  private readonly disputes = new Map<string, Dispute>();
  private readonly refunds = new Map<string, Refund>();
  private readonly refundsByReference = new Map<string, Refund>();
  /** Append-only: a line once listed never changes, and a cursor is how many lines were read. */
  private readonly statementLines: StatementLine[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly background = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();
  private readonly server: Server;
  private listeningUrl = '';

  constructor(private readonly options: SandboxOptions) {
    if (!options.apiKey || !options.callbackSecret) throw new Error('The sandbox needs an API key and a callback secret.');
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 5_000;
  }

  /** The base URL it listens on, once listening. */
  get url(): string {
    return this.listeningUrl;
  }

  async listen(port: number, host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('The sandbox listens on TCP, so its address has a port.');
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.listeningUrl = `http://${shownHost}:${address.port}`;
    return this.listeningUrl;
  }

  /** Stops timers and callback retries, then the server. */
  async close(): Promise<void> {
    this.stopping.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.background]);
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private log(line: Record<string, unknown>): void {
    this.options.log?.(line);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const parts = url.pathname.split('/').filter(Boolean);
      const method = req.method ?? 'GET';
      let answer: { status: number; body: unknown };
      if (method === 'GET' && url.pathname === '/health') {
        answer = { status: 200, body: { status: 'ok' } };
      } else if (parts[0] === 'v1' && parts[1] === 'orders') {
        this.authenticate(req);
        answer = await this.protocol(method, parts.slice(2), req);
      } else if (parts[0] === 'v1' && parts[1] === 'disputes') {
        this.authenticate(req);
        answer = await this.disputeProtocol(method, parts.slice(2), req);
      } else if (method === 'GET' && url.pathname === '/v1/statement') {
        this.authenticate(req);
        answer = this.statement(url.searchParams);
      } else if (parts[0] === 'v1' && parts[1] === 'refunds') {
        this.authenticate(req);
        answer = await this.refundProtocol(method, parts.slice(2), req);
      } else if (parts[0] === 'sandbox' && parts[1] === 'orders' && parts.length === 4 && parts[3] === 'dispute') {
        answer = await this.openDispute(method, parts[2], req);
      } else if (parts[0] === 'sandbox' && parts[1] === 'disputes' && parts.length === 4) {
        answer = await this.ruleDispute(method, parts[2], parts[3], req);
      } else if (parts[0] === 'sandbox' && parts[1] === 'orders' && parts.length >= 3) {
        answer = await this.payer(method, parts[2], parts.slice(3), req);
      } else {
        throw new HttpError(404, 'not_found', 'No such route.');
      }
      this.reply(res, answer.status, answer.body);
    } catch (error) {
      if (error instanceof HttpError) {
        this.reply(res, error.status, { error: { code: error.code, message: error.message } });
      } else {
        this.log({ msg: 'sandbox error', error: error instanceof Error ? error.message : String(error) });
        this.reply(res, 500, { error: { code: 'internal_error', message: 'The sandbox failed.' } });
      }
    }
  }

  private reply(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
    res.end(text);
  }

  private authenticate(req: IncomingMessage): void {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    if (!match || !sameSecret(match[1], this.options.apiKey)) throw new HttpError(401, 'unauthorized', 'A valid API key is required.');
  }

  private async readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    let size = 0;
    // No encoding is set on the request, so every chunk is a Buffer.
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) throw new HttpError(400, 'invalid_request', 'The body is too large.');
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() === '') return {};
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpError(400, 'invalid_request', 'The body is not valid JSON.');
    }
    if (!isRecord(value)) throw new HttpError(400, 'invalid_request', 'The body must be a JSON object.');
    return value;
  }

  private find(id: string): Order {
    const order = this.orders.get(id);
    if (!order) throw new HttpError(404, 'order_not_found', `No order ${id}.`);
    return order;
  }

  private async protocol(method: string, rest: string[], req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    if (rest.length === 0 && method === 'POST') {
      const traceparent = req.headers.traceparent;
      return this.createOrder(await this.readJson(req), typeof traceparent === 'string' ? traceparent : undefined);
    }
    if (rest.length === 1 && method === 'GET') return { status: 200, body: view(this.find(rest[0])) };
    if (rest.length === 2 && rest[1] === 'void' && method === 'POST') {
      await this.readJson(req);
      const order = this.find(rest[0]);
      if (order.status === 'paid') throw new HttpError(409, 'order_paid', 'The order is paid and cannot be voided.');
      if (order.status !== 'failed') this.fail(order, 'expired');
      return { status: 200, body: view(order) };
    }
    throw new HttpError(404, 'not_found', 'No such route.');
  }

  /** `GET /v1/statement?after=…&limit=…` (section 6.3): the lines after the cursor, oldest first. */
  private statement(params: URLSearchParams): { status: number; body: unknown } {
    const after = params.get('after');
    const limitText = params.get('limit');
    const start = after === null ? 0 : /^(0|[1-9][0-9]{0,9})$/.test(after) ? Number(after) : -1;
    if (start < 0 || start > this.statementLines.length) throw new HttpError(400, 'invalid_cursor', 'after is not a cursor this statement handed out.');
    const limit = limitText === null ? STATEMENT_DEFAULT_LIMIT : /^[1-9][0-9]{0,3}$/.test(limitText) ? Number(limitText) : 0;
    if (limit < 1 || limit > STATEMENT_MAX_LIMIT) throw new HttpError(400, 'invalid_request', `limit must be a whole number from 1 to ${STATEMENT_MAX_LIMIT}.`);
    const lines = this.statementLines.slice(start, start + limit);
    const next = start + lines.length;
    return {
      status: 200,
      body: { lines: lines.map(statementLineView), next_cursor: String(next), has_more: next < this.statementLines.length, as_of: new Date().toISOString() },
    };
  }

  /** Books a movement of money on the statement. */
  private book(type: StatementLine['type'], id: string, reference: string, amount: number, currency: string): void {
    this.statementLines.push({ type, id, reference, amount, currency, occurredAt: new Date() });
  }

  private findDispute(id: string): Dispute {
    const dispute = this.disputes.get(id);
    if (!dispute) throw new HttpError(404, 'dispute_not_found', `No dispute ${id}.`);
    return dispute;
  }

  /** `GET /v1/disputes/{id}` and `POST /v1/disputes/{id}/evidence` (section 6.1). */
  private async disputeProtocol(method: string, rest: string[], req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    if (rest.length === 1 && method === 'GET') return { status: 200, body: disputeView(this.findDispute(rest[0])) };
    if (rest.length === 2 && rest[1] === 'evidence' && method === 'POST') {
      const body = await this.readJson(req);
      const dispute = this.findDispute(rest[0]);
      const evidence = body.evidence;
      if (!isRecord(evidence)) throw new HttpError(400, 'invalid_request', 'evidence must be an object.');
      const entries = Object.entries(evidence).flatMap(([key, value]): [string, string][] => (typeof value === 'string' ? [[key, value]] : []));
      if (entries.length > MAX_EVIDENCE_KEYS || entries.length !== Object.keys(evidence).length) {
        throw new HttpError(400, 'invalid_request', `evidence must map at most ${MAX_EVIDENCE_KEYS} keys to strings.`);
      }
      if (dispute.status === 'won' || dispute.status === 'lost') throw new HttpError(409, 'dispute_closed', 'The dispute has been ruled on.');
      // The set sent replaces the one held, so a repeated submission is harmless.
      dispute.evidence = Object.fromEntries(entries);
      if (dispute.status === 'opened') dispute.status = 'under_review';
      this.log({ msg: 'dispute evidence', id: dispute.id, keys: entries.length });
      return { status: 200, body: disputeView(dispute) };
    }
    throw new HttpError(404, 'not_found', 'No such route.');
  }

  /** `POST /v1/refunds` and `GET /v1/refunds/{id}` (section 6.2). */
  private async refundProtocol(method: string, rest: string[], req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    if (rest.length === 0 && method === 'POST') return this.placeRefund(await this.readJson(req));
    if (rest.length === 1 && method === 'GET') {
      const refund = this.refunds.get(rest[0]);
      if (!refund) throw new HttpError(404, 'refund_not_found', `No refund ${rest[0]}.`);
      return { status: 200, body: refundView(refund) };
    }
    throw new HttpError(404, 'not_found', 'No such route.');
  }

  private placeRefund(body: Record<string, unknown>): { status: number; body: unknown } {
    const { reference, order_id: orderId, amount, currency, reason, callback_url: callbackUrl } = body;
    if (typeof reference !== 'string' || reference.length < 1 || reference.length > 255)
      throw new HttpError(400, 'invalid_request', 'reference must be a string of 1 to 255 characters.');
    if (typeof orderId !== 'string') throw new HttpError(400, 'invalid_request', 'order_id is required.');
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1)
      throw new HttpError(400, 'invalid_request', 'amount must be a positive integer of minor units.');
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw new HttpError(400, 'invalid_request', 'currency must be an ISO 4217 code.');
    if (reason !== undefined && (typeof reason !== 'string' || reason.length > 255))
      throw new HttpError(400, 'invalid_request', 'reason must be a short string.');
    if (typeof callbackUrl !== 'string' || !/^https?:\/\//.test(callbackUrl) || !URL.canParse(callbackUrl))
      throw new HttpError(400, 'invalid_request', 'callback_url must be an http(s) URL.');

    const existing = this.refundsByReference.get(reference);
    if (existing) {
      if (existing.order.id !== orderId || existing.amount !== amount || existing.currency !== currency) {
        throw new HttpError(409, 'reference_conflict', 'This reference names a refund with other parameters.');
      }
      return { status: 200, body: refundView(existing) };
    }
    const order = this.find(orderId);
    if (order.status !== 'paid') throw new HttpError(422, 'channel_declined', 'The sandbox refunds paid orders only.');
    if (currency !== order.currency) throw new HttpError(422, 'channel_declined', 'The sandbox refunds in the currency the order was paid in.');
    const refunded = [...this.refunds.values()].filter((r) => r.order === order && r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
    if (refunded + amount > order.amount) throw new HttpError(422, 'channel_declined', 'The refund is more than what is left of the order.');

    const refund: Refund = { id: `rfd_${randomBytes(10).toString('hex')}`, order, reference, amount, currency, callbackUrl, status: 'pending' };
    this.refunds.set(refund.id, refund);
    this.refundsByReference.set(reference, refund);
    this.after(this.options.refundAfterMs ?? 1000, () => {
      const outcome = refundOutcome(refund.amount);
      refund.status = outcome.status;
      if (outcome.status === 'failed') refund.failureCode = outcome.failureCode;
      else this.book('refund', refund.id, refund.reference, refund.amount, refund.currency);
      this.log({ msg: `refund ${refund.status}`, id: refund.id });
      this.inBackground(this.deliverRefund(refund));
    });
    this.log({ msg: 'refund placed', id: refund.id, reference, order: order.id, amount, currency });
    return { status: 201, body: refundView(refund) };
  }

  /** The dispute desk opens a dispute over the whole amount of a paid order and notifies it. */
  private async openDispute(method: string, orderId: string, req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    if (method !== 'POST') throw new HttpError(404, 'not_found', 'No such route.');
    const body = await this.readJson(req);
    const order = this.find(orderId);
    if (order.status !== 'paid') throw new HttpError(409, 'order_not_paid', 'Only a paid order can be disputed.');
    const open = [...this.disputes.values()].some((d) => d.order === order && (d.status === 'opened' || d.status === 'under_review'));
    if (open) throw new HttpError(409, 'dispute_open', 'The order already has an open dispute.');
    const reason = typeof body.reason === 'string' && body.reason.length > 0 && body.reason.length <= 255 ? body.reason : 'fraudulent';
    const dispute: Dispute = {
      id: `dsp_${randomBytes(10).toString('hex')}`,
      order,
      amount: order.amount,
      currency: order.currency,
      reason,
      status: 'opened',
      evidence: {},
    };
    this.disputes.set(dispute.id, dispute);
    this.log({ msg: 'dispute opened', id: dispute.id, order: order.id });
    const callback = await this.deliverDispute(dispute);
    return { status: 200, body: { dispute: disputeView(dispute), callback } };
  }

  /** The dispute desk rules (`won` or `lost`) on an open dispute and notifies it. */
  private async ruleDispute(method: string, id: string, ruling: string, req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    if (method !== 'POST' || (ruling !== 'won' && ruling !== 'lost')) throw new HttpError(404, 'not_found', 'No such route.');
    await this.readJson(req);
    const dispute = this.findDispute(id);
    if (dispute.status === 'won' || dispute.status === 'lost') throw new HttpError(409, 'dispute_closed', 'The dispute has been ruled on.');
    dispute.status = ruling;
    if (ruling === 'lost') this.book('chargeback', dispute.id, dispute.order.reference, dispute.amount, dispute.currency);
    this.log({ msg: `dispute ${ruling}`, id: dispute.id });
    const callback = await this.deliverDispute(dispute);
    return { status: 200, body: { dispute: disputeView(dispute), callback } };
  }

  private createOrder(body: Record<string, unknown>, traceparent: string | undefined): { status: number; body: unknown } {
    const { reference, amount, currency, payment_method: paymentMethod, callback_url: callbackUrl, expires_at: expiresAt } = body;
    if (typeof reference !== 'string' || reference.length < 1 || reference.length > 255)
      throw new HttpError(400, 'invalid_request', 'reference must be a string of 1 to 255 characters.');
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1)
      throw new HttpError(400, 'invalid_request', 'amount must be a positive integer of minor units.');
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw new HttpError(400, 'invalid_request', 'currency must be an ISO 4217 code.');
    if (typeof paymentMethod !== 'string') throw new HttpError(400, 'invalid_request', 'payment_method is required.');
    if (typeof callbackUrl !== 'string' || !/^https?:\/\//.test(callbackUrl) || !URL.canParse(callbackUrl))
      throw new HttpError(400, 'invalid_request', 'callback_url must be an http(s) URL.');
    if (typeof expiresAt !== 'string' || !RFC3339.test(expiresAt) || Number.isNaN(Date.parse(expiresAt)))
      throw new HttpError(400, 'invalid_request', 'expires_at must be an RFC 3339 timestamp.');

    const existing = this.byReference.get(reference);
    if (existing) {
      if (existing.amount !== amount || existing.currency !== currency || existing.paymentMethod !== paymentMethod) {
        throw new HttpError(409, 'reference_conflict', 'This reference names an order with other parameters.');
      }
      return { status: 200, body: this.createdView(existing) };
    }
    const entry = METHODS[paymentMethod];
    if (!entry) throw new HttpError(422, 'unsupported_payment_method', 'The sandbox does not offer this payment method.');
    if (!entry.currencies.includes(currency)) throw new HttpError(422, 'unsupported_currency', 'This payment method does not take this currency.');
    const expires = new Date(expiresAt);
    if (expires.getTime() <= Date.now()) throw new HttpError(422, 'order_expired', 'expires_at is in the past.');

    const order: Order = {
      id: `ord_${randomBytes(10).toString('hex')}`,
      reference,
      amount,
      currency,
      paymentMethod,
      callbackUrl,
      expiresAt: expires,
      ...(traceparent !== undefined && TRACEPARENT.test(traceparent) ? { traceparent } : {}),
      status: 'pending',
    };
    this.orders.set(order.id, order);
    this.byReference.set(reference, order);
    this.after(Math.min(expires.getTime() - Date.now(), MAX_TIMER_MS), () => {
      if (order.status === 'pending' || order.status === 'processing') {
        this.fail(order, 'expired');
        this.deliverInBackground(order);
      }
    });
    this.log({ msg: 'order created', id: order.id, reference, amount, currency, payment_method: paymentMethod });
    return { status: 201, body: this.createdView(order) };
  }

  private createdView(order: Order): Record<string, unknown> {
    const entry = METHODS[order.paymentMethod];
    const nextAction =
      entry.nextAction === 'qr_code'
        ? { type: 'qr_code', qr_data: `SANDBOXQR|${order.id}|${order.amount}|${order.currency}` }
        : { type: 'redirect', url: `${this.options.publicUrl ?? this.listeningUrl}/sandbox/orders/${order.id}` };
    return { ...view(order), next_action: nextAction };
  }

  /** The payer's side: look at an order, scan it (processing), pay it, or fail it. */
  private async payer(method: string, id: string, rest: string[], req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const order = this.find(id);
    if (rest.length === 0 && method === 'GET') {
      return { status: 200, body: { ...view(order), payment_method: order.paymentMethod, expires_at: order.expiresAt.toISOString() } };
    }
    const action = rest[0];
    if (rest.length !== 1 || method !== 'POST' || (action !== 'pay' && action !== 'fail' && action !== 'process'))
      throw new HttpError(404, 'not_found', 'No such route.');
    const body = await this.readJson(req);
    if (order.status === 'paid' || order.status === 'failed') throw new HttpError(409, 'order_final', `The order is already ${order.status}.`);
    if (action === 'process') {
      if (order.status === 'processing') throw new HttpError(409, 'order_processing', 'The order is already processing.');
      order.status = 'processing';
    } else if (action === 'pay') {
      order.status = 'paid';
      this.book('payment', order.id, order.reference, order.amount, order.currency);
      this.after(this.options.settleAfterMs ?? 2000, () => {
        order.settledAt = new Date();
        this.log({ msg: 'order settled', id: order.id });
        this.deliverInBackground(order);
      });
    } else {
      const failureCode = body.failure_code;
      if (typeof failureCode !== 'string' || !PAYER_FAILURE_CODES.includes(failureCode)) {
        throw new HttpError(400, 'invalid_request', `failure_code must be one of ${PAYER_FAILURE_CODES.join(', ')}.`);
      }
      this.fail(order, failureCode);
    }
    this.log({ msg: `order ${order.status}`, id: order.id });
    const callback = await this.deliver(order);
    return { status: 200, body: { order: view(order), callback } };
  }

  private fail(order: Order, failureCode: string): void {
    order.status = 'failed';
    order.failureCode = failureCode;
  }

  private after(ms: number, run: () => void): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        run();
      },
      Math.max(0, ms),
    );
    this.timers.add(timer);
  }

  private deliverInBackground(order: Order): void {
    this.inBackground(this.deliver(order));
  }

  /** Keeps a delivery running after the request that caused it, for `close` to wait on. */
  private inBackground(delivery: Promise<CallbackDelivery>): void {
    const task = delivery.finally(() => this.background.delete(task));
    this.background.add(task);
  }

  /** Posts the signed callback of the order's current state, retrying with backoff until a 2xx. */
  private deliver(order: Order): Promise<CallbackDelivery> {
    return this.post(order.callbackUrl, JSON.stringify(view(order)), order.id, order.status, order.traceparent);
  }

  /** Posts the signed dispute notice (`"type": "dispute"`) to its order's callback URL. */
  private deliverDispute(dispute: Dispute): Promise<CallbackDelivery> {
    return this.post(dispute.order.callbackUrl, JSON.stringify({ type: 'dispute', ...disputeView(dispute) }), dispute.id, dispute.status);
  }

  /** Posts the signed refund notice (`"type": "refund"`) to the refund's callback URL. */
  private deliverRefund(refund: Refund): Promise<CallbackDelivery> {
    return this.post(refund.callbackUrl, JSON.stringify({ type: 'refund', ...refundView(refund) }), refund.id, refund.status);
  }

  private async post(callbackUrl: string, body: string, id: string, state: string, traceparent?: string): Promise<CallbackDelivery> {
    const tries = this.options.callbackTries ?? 4;
    let status: number | undefined;
    for (let attempt = 1; attempt <= tries; attempt++) {
      if (this.stopping.signal.aborted) return { delivered: false, attempts: attempt - 1, ...(status ? { status } : {}) };
      const timestamp = Math.floor(Date.now() / 1000);
      try {
        const response = await fetch(callbackUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'channel-signature': `t=${timestamp},v1=${sign(this.options.callbackSecret, timestamp, body)}`,
            ...(traceparent === undefined ? {} : { traceparent }),
          },
          body,
          redirect: 'manual',
          signal: AbortSignal.any([AbortSignal.timeout(this.options.callbackTimeoutMs ?? 5000), this.stopping.signal]),
        });
        status = response.status;
        await response.body?.cancel();
        if (status >= 200 && status < 300) {
          this.log({ msg: 'callback delivered', id, status: state, attempts: attempt, http_status: status });
          return { delivered: true, attempts: attempt, status };
        }
      } catch {
        status = undefined;
      }
      this.log({ msg: 'callback failed', id, status: state, attempt, ...(status ? { http_status: status } : {}) });
      if (attempt < tries) await this.sleep(250 * 2 ** (attempt - 1));
    }
    return { delivered: false, attempts: tries, ...(status ? { status } : {}) };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.stopping.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }
}
