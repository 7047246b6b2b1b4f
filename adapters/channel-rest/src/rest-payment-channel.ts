import {
  CoreError,
  PAYER_FAILURE_CODES,
  PAYMENT_METHODS,
  channelDisputeStatus,
  channelError,
  invalidCallback,
  refusedOrder,
  channelOrderStatus,
  channelRefundStatus,
  findPaymentMethod,
  payableCurrencies,
  type AttemptFailureCode,
  type ChannelCapabilities,
  type ChannelDisputeStatus,
  type ChannelNotice,
  type ChannelOrderStatus,
  type ChannelRefundStatus,
  type Clock,
  type Mode,
  type PaymentChannel,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type PlaceRefundRequest,
  type PlaceRefundResult,
  type RefundFailureCode,
  type ChannelStatement,
  type StatementQuery,
} from '@payments/core';
import { verifyRestCallbackSignature } from './callback-signature';
import { send, sendWithRetries, TransportFailure, type HttpAnswer, type HttpRequest, type RetryPolicy } from './http-client';
import {
  ORDER_ID_PATTERN,
  ProtocolViolation,
  isDisputeNotice,
  isRefundNotice,
  parseJsonObject,
  readCallback,
  readCreatedOrder,
  readDispute,
  readDisputeNotice,
  readErrorCode,
  readOrder,
  readPlacedRefund,
  readRefund,
  readRefundNotice,
  readStatement,
  refundFailureCode,
} from './rest-protocol';

/** One environment of the channel (its sandbox for test mode, production for live). */
export interface RestChannelEndpoint {
  /** `https://api.channel.example` (a path prefix is kept: `…/gateway` → `…/gateway/v1/orders`). */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …`; never logged. */
  readonly apiKey: string;
  /** Keys the HMAC of the callbacks; never logged. */
  readonly callbackSecret: string;
}

/** The pino-compatible subset the adapter logs through (retries only; no body, no key). */
export interface RestChannelLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface RestPaymentChannelOptions {
  readonly test?: RestChannelEndpoint;
  readonly live?: RestChannelEndpoint;
  /** Per request, connection and full answer together. Default 10 000. */
  readonly timeoutMs?: number;
  /** Further tries of create and query after a transport failure, 408, 429 or 5xx. Default 2. */
  readonly retries?: number;
  /** First backoff step; doubles per retry, capped at 5 s, with jitter. Default 250. */
  readonly retryBaseDelayMs?: number;
  /** How long an order may stay pending before the reconciler queries it. Default 15 minutes. */
  readonly pendingTimeoutMs?: number;
  /** Checks callback timestamps; the system clock by default. */
  readonly clock?: Clock;
  readonly logger?: RestChannelLogger;
  /**
   * Headers of the trace the call belongs to (W3C `traceparent`, `tracestate`), sent with every
   * request so the channel can join it and echo `traceparent` on its callbacks
   * (docs/channels/rest.md). None by default: tracing off sends nothing more.
   */
  readonly traceHeaders?: () => Readonly<Record<string, string>>;
}

export const REST_CHANNEL_NAME = 'rest';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_PENDING_TIMEOUT_MS = 15 * 60_000;
const MAX_RETRY_DELAY_MS = 5_000;
/** The most statement lines the protocol lets us ask for at once. */
const MAX_STATEMENT_LIMIT = 1000;

const systemClock: Clock = { now: () => new Date() };

const REFUSAL_MESSAGES: Record<string, string> = {
  insufficient_funds: "The channel declined the payment: the payer's funds are insufficient.",
  risk_blocked: 'The channel declined the payment after its risk checks.',
  payer_cancelled: 'The payer cancelled the payment at the channel.',
};

const isPayerFailureCode = (code: string | undefined): code is AttemptFailureCode => PAYER_FAILURE_CODES.some((payer) => payer === code);

const RESOURCE_NOUNS = { orders: 'order', disputes: 'dispute', refunds: 'refund' } as const;
type ResourceKind = keyof typeof RESOURCE_NOUNS;

const REFUND_REFUSAL_MESSAGES: Record<RefundFailureCode, string> = {
  insufficient_channel_funds: "The channel declined the refund: the platform's balance at the channel cannot cover it.",
  channel_declined: 'The channel declined the refund.',
  expired_credential: "The channel declined the refund: the platform's credential for refunds has expired.",
};

function refundRefusal(failureCode: RefundFailureCode): PlaceRefundResult {
  return { outcome: 'refused', failureCode, message: REFUND_REFUSAL_MESSAGES[failureCode] };
}

function isHttpsOnly(mode: Mode): boolean {
  return mode === 'live';
}

/**
 * The `rest` channel (docs/channels/rest.md): places orders over HTTP, asks the channel for its
 * record of an order, and checks the HMAC of its callbacks. The channel's sandbox cannot be told
 * what to report, so there is no `simulate` (nor `simulateRefund`); it places and queries
 * refunds, and its refund notices are checked like its callbacks.
 *
 * What the channel answers reaches our objects only through strict readers; its messages and
 * bodies never reach an error message or a log.
 */
export class RestPaymentChannel implements PaymentChannel {
  readonly capabilities: ChannelCapabilities;
  private readonly endpoints: Partial<Record<Mode, RestChannelEndpoint>>;
  private readonly timeoutMs: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly clock: Clock;
  private readonly logger: RestChannelLogger | undefined;
  private readonly traceHeaders: (() => Readonly<Record<string, string>>) | undefined;

  constructor(options: RestPaymentChannelOptions) {
    this.endpoints = {};
    for (const mode of ['test', 'live'] as const) {
      const endpoint = options[mode];
      if (!endpoint) continue;
      let url: URL;
      try {
        url = new URL(endpoint.baseUrl);
      } catch {
        throw new Error(`The ${mode} base URL of the rest channel is not a URL.`);
      }
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && mode === 'test')) {
        throw new Error(`The ${mode} base URL of the rest channel must be https${mode === 'test' ? ' or http' : ''}.`);
      }
      if (!endpoint.apiKey || !endpoint.callbackSecret) throw new Error(`The ${mode} rest channel needs an API key and a callback secret.`);
      this.endpoints[mode] = { ...endpoint, baseUrl: endpoint.baseUrl.replace(/\/+$/, '') };
    }
    const modes = (['test', 'live'] as const).filter((mode) => this.endpoints[mode] !== undefined);
    if (modes.length === 0) throw new Error('The rest channel needs a test or a live endpoint.');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retryPolicy = { retries: options.retries ?? 2, baseDelayMs: options.retryBaseDelayMs ?? 250, maxDelayMs: MAX_RETRY_DELAY_MS };
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger;
    this.traceHeaders = options.traceHeaders;
    this.capabilities = {
      name: REST_CHANNEL_NAME,
      modes,
      methods: PAYMENT_METHODS.map((entry) => entry.method),
      currencies: payableCurrencies(),
      canSimulate: false,
      pendingTimeoutMs: options.pendingTimeoutMs ?? DEFAULT_PENDING_TIMEOUT_MS,
    };
  }

  /**
   * `POST /v1/orders`, retried (idempotent on `reference`) after a timeout, a connection error,
   * 408, 429 or 5xx. Never throws for the channel's failures: they are `refused` with
   * `channel_error`; a 402/422 with a payer code is `refused` with that code.
   */
  async placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const endpoint = this.endpoints[request.mode];
    if (!endpoint) return refusedOrder('channel_error', `The rest channel is not configured for ${request.mode} mode.`);
    const method = findPaymentMethod(request.paymentMethod);
    if (!method) return refusedOrder('channel_error', 'The rest channel does not offer this payment method.');

    let answer: HttpAnswer;
    try {
      answer = await sendWithRetries(
        {
          method: 'POST',
          url: `${endpoint.baseUrl}/v1/orders`,
          apiKey: endpoint.apiKey,
          timeoutMs: this.timeoutMs,
          ...this.extraHeaders(),
          body: {
            reference: request.reference,
            amount: request.amount,
            currency: request.currency,
            payment_method: request.paymentMethod,
            callback_url: request.callbackUrl,
            expires_at: request.expiresAt.toISOString(),
          },
        },
        this.retryPolicy,
        (details) => this.logRetry(request.mode, 'create_order', details),
      );
    } catch (error) {
      return refusedOrder('channel_error', error instanceof TransportFailure ? error.message : 'The channel could not be reached.');
    }

    if (answer.status === 402 || answer.status === 422) {
      const code = readErrorCode(answer.body);
      if (isPayerFailureCode(code)) {
        return { outcome: 'refused', failureCode: code, message: REFUSAL_MESSAGES[code] };
      }
      return refusedOrder('channel_error', `The channel refused the order (HTTP ${answer.status}).`);
    }
    if (answer.status !== 200 && answer.status !== 201) return refusedOrder('channel_error', `The channel answered HTTP ${answer.status} to the order.`);
    try {
      const created = readCreatedOrder(parseJsonObject(answer.body, 'order answer'), {
        reference: request.reference,
        amount: request.amount,
        currency: request.currency,
        nextAction: method.nextAction,
        httpsOnly: isHttpsOnly(request.mode),
      });
      if (created.failureCode !== undefined) {
        return {
          outcome: 'refused',
          failureCode: created.failureCode,
          message: REFUSAL_MESSAGES[created.failureCode] ?? 'The channel order has already failed.',
        };
      }
      return { outcome: 'placed', channelOrderId: created.id, nextAction: created.nextAction };
    } catch (error) {
      if (error instanceof ProtocolViolation) return refusedOrder('channel_error', `The channel's order answer broke the protocol: ${error.message}`);
      throw error;
    }
  }

  /**
   * `GET /v1/orders/{id}`, retried like create. Throws CoreError `channel_error` (unavailable)
   * when no valid answer came: a transport failure, any status but 200, or a body that is not the
   * protocol's order of this id (float amount, unknown status, another id …).
   */
  async queryOrder(mode: Mode, channelOrderId: string): Promise<ChannelOrderStatus> {
    return channelOrderStatus(await this.query(mode, 'orders', channelOrderId, readOrder));
  }

  /**
   * Checks `Channel-Signature` (HMAC-SHA256 of `"<t>.<rawBody>"` with this mode's callback
   * secret, `t` within 300 s), then parses the body. Throws CoreError `invalid_signature`
   * (authentication) or `invalid_callback` (validation); the amount it carries is only a claim.
   */
  verifyCallback(mode: Mode, headers: Readonly<Record<string, string | undefined>>, rawBody: string): ChannelNotice {
    const endpoint = this.endpoints[mode];
    if (!endpoint) throw new CoreError('invalid_signature', 'authentication', `The rest channel has no callback secret for ${mode} mode.`);
    verifyRestCallbackSignature(endpoint.callbackSecret, headers, rawBody, this.clock.now());
    try {
      const body = parseJsonObject(rawBody, 'callback body');
      if (isDisputeNotice(body)) return { kind: 'dispute', channelDisputeId: readDisputeNotice(body).id };
      if (isRefundNotice(body)) {
        const notice = readRefundNotice(body);
        return { kind: 'refund', channelRefundId: notice.id, reference: notice.reference };
      }
      const callback = readCallback(body);
      return { kind: 'order', channelOrderId: callback.id, reference: callback.reference, reportedStatus: callback.status };
    } catch (error) {
      if (error instanceof ProtocolViolation) throw invalidCallback(`The callback breaks the rest protocol: ${error.message}`);
      throw error;
    }
  }

  /**
   * `POST /v1/orders/{id}/void`, sent once (best effort). Resolves when the order is void (or was
   * already failed); throws CoreError `channel_error` otherwise, `409 order_paid` included, for
   * the caller to log: the confirming query settles what really happened.
   */
  async voidOrder(mode: Mode, channelOrderId: string): Promise<void> {
    const endpoint = this.requireEndpoint(mode);
    const url = `${this.resourceUrl(endpoint, 'orders', channelOrderId)}/void`;
    const answer = await this.call(mode, 'void_order', () =>
      send({ method: 'POST', url, apiKey: endpoint.apiKey, timeoutMs: this.timeoutMs, ...this.extraHeaders(), body: {} }),
    );
    if (answer.status === 409 && readErrorCode(answer.body) === 'order_paid') {
      throw channelError('The channel did not void the order: it is already paid.');
    }
    if (answer.status !== 200) throw channelError(`The channel answered HTTP ${answer.status} to the void.`);
    const order = this.readAnswer(answer, 'void answer', readOrder, channelOrderId);
    if (order.status !== 'failed') throw channelError('The channel accepted the void but the order is not failed.');
  }

  /**
   * `GET /v1/disputes/{id}`, retried like the order query: the confirming query of dispute
   * notices. Throws CoreError `channel_error` (unavailable) when no valid answer of this dispute came.
   */
  async queryDispute(mode: Mode, channelDisputeId: string): Promise<ChannelDisputeStatus> {
    return channelDisputeStatus(await this.query(mode, 'disputes', channelDisputeId, readDispute));
  }

  /**
   * `POST /v1/disputes/{id}/evidence` with the whole evidence set, which the channel keeps in place
   * of any earlier one; so the call is idempotent and retried like the queries. Resolves once the
   * channel answered 200 with the dispute; throws CoreError `channel_error` otherwise (a ruled
   * dispute's `409 dispute_closed` included), and then the caller stores nothing.
   */
  async submitDisputeEvidence(mode: Mode, channelDisputeId: string, evidence: Readonly<Record<string, string>>): Promise<void> {
    const endpoint = this.requireEndpoint(mode);
    const url = `${this.resourceUrl(endpoint, 'disputes', channelDisputeId)}/evidence`;
    const answer = await this.sendRetried(mode, 'submit_evidence', endpoint, { method: 'POST', url, body: { evidence } });
    if (answer.status === 409 && readErrorCode(answer.body) === 'dispute_closed') {
      throw channelError('The channel has ruled on this dispute already and takes no more evidence.');
    }
    if (answer.status !== 200) throw channelError(`The channel answered HTTP ${answer.status} to the evidence.`);
    this.readAnswer(answer, 'evidence answer', readDispute, channelDisputeId);
  }

  /**
   * `POST /v1/refunds`, retried (idempotent on `reference`) like create. A 402, 404 or 422 is a
   * decline (`refused`) with the protocol's code, or `channel_declined` for another; so is a
   * repeat that finds the refund failed. Throws CoreError `channel_error` (unavailable) when no
   * valid answer came (a transport failure, a 5xx, another status, an answer that is not this
   * refund): whether the refund was placed is then unknown, and the reconciler places it again.
   */
  async placeRefund(request: PlaceRefundRequest): Promise<PlaceRefundResult> {
    const endpoint = this.requireEndpoint(request.mode);
    if (!ORDER_ID_PATTERN.test(request.channelOrderId)) throw channelError('The channel order id is not one the rest protocol allows.');
    const answer = await this.sendRetried(request.mode, 'place_refund', endpoint, {
      method: 'POST',
      url: `${endpoint.baseUrl}/v1/refunds`,
      body: {
        reference: request.reference,
        order_id: request.channelOrderId,
        amount: request.amount,
        currency: request.currency,
        ...(request.reason ? { reason: request.reason } : {}),
        callback_url: request.callbackUrl,
      },
    });
    if (answer.status === 402 || answer.status === 404 || answer.status === 422) {
      return refundRefusal(refundFailureCode(readErrorCode(answer.body)));
    }
    if (answer.status !== 200 && answer.status !== 201) throw channelError(`The channel answered HTTP ${answer.status} to the refund.`);
    const refund = this.readAnswer(answer, 'refund answer', (object) =>
      readPlacedRefund(object, { reference: request.reference, orderId: request.channelOrderId, amount: request.amount, currency: request.currency }),
    );
    if (refund.status === 'failed') return refundRefusal(refund.failureCode ?? 'channel_declined');
    return { outcome: 'placed', channelRefundId: refund.id };
  }

  /**
   * `GET /v1/refunds/{id}`, retried like the order query: the confirming query of refund notices.
   * Throws CoreError `channel_error` (unavailable) when no valid answer of this refund came.
   */
  async queryRefund(mode: Mode, channelRefundId: string): Promise<ChannelRefundStatus> {
    return channelRefundStatus(await this.query(mode, 'refunds', channelRefundId, readRefund));
  }

  /**
   * `GET /v1/statement?after=…&limit=…` (section 6.3), retried like the order query: a page of
   * the channel's statement after a cursor. Throws CoreError `channel_error` (unavailable) when no
   * valid page came (a transport failure, any status but 200, a body that breaks the protocol).
   */
  async statement(mode: Mode, query: StatementQuery): Promise<ChannelStatement> {
    const endpoint = this.requireEndpoint(mode);
    const limit = Math.min(Math.max(1, Math.floor(query.limit)), MAX_STATEMENT_LIMIT);
    const params = new URLSearchParams({ limit: String(limit), ...(query.after === undefined ? {} : { after: query.after }) });
    const answer = await this.sendRetried(mode, 'statement', endpoint, { method: 'GET', url: `${endpoint.baseUrl}/v1/statement?${params.toString()}` });
    if (answer.status !== 200) throw channelError(`The channel answered HTTP ${answer.status} to the statement.`);
    try {
      return readStatement(parseJsonObject(answer.body, 'statement'), limit);
    } catch (error) {
      if (error instanceof ProtocolViolation) throw channelError(`The channel's statement broke the protocol: ${error.message}`);
      throw error;
    }
  }

  /**
   * `GET /v1/{kind}/{id}`, retried after a transport failure, 408, 429 or 5xx: the channel's
   * record of that order, dispute or refund. Throws CoreError `channel_error` (unavailable) when
   * no valid answer about it came.
   */
  private async query<T extends { readonly id: string }>(
    mode: Mode,
    kind: ResourceKind,
    channelId: string,
    read: (object: Record<string, unknown>) => T,
  ): Promise<T> {
    const endpoint = this.requireEndpoint(mode);
    const url = this.resourceUrl(endpoint, kind, channelId);
    const operation = `query_${RESOURCE_NOUNS[kind]}`;
    const what = `${RESOURCE_NOUNS[kind]} query`;
    const answer = await this.sendRetried(mode, operation, endpoint, { method: 'GET', url });
    if (answer.status !== 200) throw channelError(`The channel answered HTTP ${answer.status} to the ${what}.`);
    return this.readAnswer(answer, what, read, channelId);
  }

  private requireEndpoint(mode: Mode): RestChannelEndpoint {
    const endpoint = this.endpoints[mode];
    if (!endpoint) throw channelError(`The rest channel is not configured for ${mode} mode.`);
    return endpoint;
  }

  /** `…/v1/{kind}/{id}` of an order, a dispute or a refund. */
  private resourceUrl(endpoint: RestChannelEndpoint, kind: ResourceKind, channelId: string): string {
    // Our stored ids came from the channel through the same pattern; refusing others keeps a
    // corrupted id from turning into another path.
    if (!ORDER_ID_PATTERN.test(channelId)) throw channelError(`The channel ${RESOURCE_NOUNS[kind]} id is not one the rest protocol allows.`);
    return `${endpoint.baseUrl}/v1/${kind}/${channelId}`;
  }

  /** `request` with this mode's key and the timeout, retried like create; a failure is `channel_error` (`call`). */
  private sendRetried(
    mode: Mode,
    operation: string,
    endpoint: RestChannelEndpoint,
    request: Pick<HttpRequest, 'method' | 'url' | 'body'>,
  ): Promise<HttpAnswer> {
    return this.call(mode, operation, () =>
      sendWithRetries({ ...request, apiKey: endpoint.apiKey, timeoutMs: this.timeoutMs, ...this.extraHeaders() }, this.retryPolicy, (details) =>
        this.logRetry(mode, operation, details),
      ),
    );
  }

  /** The trace's headers for a request made now, when tracing gave any. */
  private extraHeaders(): { extraHeaders?: Readonly<Record<string, string>> } {
    return this.traceHeaders ? { extraHeaders: this.traceHeaders() } : {};
  }

  private async call(mode: Mode, operation: string, run: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof TransportFailure) throw channelError(error.message, error);
      this.logger?.warn({ channel: REST_CHANNEL_NAME, mode, operation }, 'rest channel request failed unexpectedly');
      throw channelError('The channel could not be reached.');
    }
  }

  /**
   * Reads a 2xx answer through a strict reader; with `askedId`, it must be about that resource.
   * A body that breaks the protocol throws CoreError `channel_error` naming the field, never its value.
   */
  private readAnswer<T extends { readonly id: string }>(answer: HttpAnswer, what: string, read: (object: Record<string, unknown>) => T, askedId?: string): T {
    try {
      const fields = read(parseJsonObject(answer.body, what));
      if (askedId !== undefined && fields.id !== askedId) throw new ProtocolViolation("'id' is not the one asked for.");
      return fields;
    } catch (error) {
      if (error instanceof ProtocolViolation) throw channelError(`The channel's ${what} broke the protocol: ${error.message}`);
      throw error;
    }
  }

  private logRetry(mode: Mode, operation: string, details: { readonly retry: number; readonly reason: string }): void {
    this.logger?.warn({ channel: REST_CHANNEL_NAME, mode, operation, retry: details.retry, reason: details.reason }, 'retrying rest channel request');
  }
}
