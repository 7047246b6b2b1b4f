import type { CryptoProvider } from '../crypto/crypto-provider.js';
import {
  ApiConnectionError,
  ApiError,
  AuthenticationError,
  errorFromResponse,
  RequestAbortedError,
  type ApiErrorBody,
  type LastResponse,
  type PaymentsError,
} from '../errors.js';
import type { CsvFile, RequestOptions } from '../types.js';
import { parseExactJson } from './exact-json.js';
import type { HttpClient, HttpMethod, HttpResponse } from './http-client.js';
import { backoffDelay, isRetryableStatus, MAX_RETRY_AFTER_MS, retryAfterMs, type BackoffOptions } from './retry.js';

export interface RequestSenderConfig {
  /** Undefined for a client made to verify webhooks only: every call rejects before it is sent. */
  apiKey: string | undefined;
  baseUrl: string;
  apiVersion: string | undefined;
  maxNetworkRetries: number;
  timeout: number;
  httpClient: HttpClient;
  crypto: CryptoProvider;
  backoff: BackoffOptions;
  userAgent: string;
}

export type QueryValue = string | number | boolean | Date | undefined;

/** One call of the API as a resource method describes it. */
export interface ApiRequest {
  method: HttpMethod;
  path: string;
  query?: Record<string, QueryValue>;
  body?: object;
  options?: RequestOptions;
  /** What a success answers: a JSON object (the default), or a CSV file (the exports). */
  format?: 'json' | 'csv';
}

/** An object the API answered, with the answer it came in (`lastResponse`, not enumerable: JSON of it stays the API's). */
export type ApiResponse<T> = T & { readonly lastResponse: LastResponse };

/** What the SDK remembers of the last answer (for logs and support: the request id). */
export interface ResponseInfo {
  status: number;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
  replayed: boolean;
  /** How many tries the call took (1 when it needed no retry). */
  attempts: number;
}

/** `client.on('request', …)`: one try of a call is about to be sent. Never carries the API key. */
export interface RequestEvent {
  method: HttpMethod;
  /** The URL's path, without the query. */
  path: string;
  /** 1 for the first try, 2 for the first retry … */
  attempt: number;
  /** The Idempotency-Key sent (POSTs), the same on every try of a call. */
  idempotencyKey: string | undefined;
  apiVersion: string | undefined;
  /** When the try started, ms since the epoch. */
  requestStartTime: number;
}

/** `client.on('response', …)`: one try of a call ended, with an answer (`status`) or without (`error`). */
export interface ResponseEvent extends RequestEvent {
  /** The HTTP status, or undefined when no answer came. */
  status: number | undefined;
  requestId: string | undefined;
  /** Why no answer came: ApiConnectionError (`connection_error`, `timeout`) or RequestAbortedError. */
  error: PaymentsError | undefined;
  /** Milliseconds the try took, answer body included. */
  elapsed: number;
  requestEndTime: number;
  /** Whether the SDK will try again (after its backoff). */
  willRetry: boolean;
}

export interface RequestHooks {
  request: RequestEvent;
  response: ResponseEvent;
}

export type RequestHookName = keyof RequestHooks;

/** Headers only the SDK sets: the client's key, and the call's key through `idempotencyKey`. */
const RESERVED_HEADERS: Readonly<Record<string, string>> = {
  authorization: 'a header of another key: make a client with that key',
  'idempotency-key': 'an Idempotency-Key header: pass the idempotencyKey option',
};

type Outcome = { kind: 'answer'; response: HttpResponse; text: string } | { kind: 'no_answer'; error: PaymentsError; aborted: boolean };

/**
 * Sends requests: authentication, versions, one Idempotency-Key per POST kept across its
 * retries, timeouts, cancellation, retries with backoff, the request hooks, and the mapping of
 * errors to classes.
 */
export class RequestSender {
  /** Called after each answered call. */
  onResponse: ((info: ResponseInfo) => void) | undefined;
  private readonly hooks: { [Name in RequestHookName]: Set<(event: RequestHooks[Name]) => void> } = { request: new Set(), response: new Set() };

  constructor(private readonly config: RequestSenderConfig) {}

  on<Name extends RequestHookName>(name: Name, listener: (event: RequestHooks[Name]) => void): void {
    this.listeners(name).add(listener);
  }

  off<Name extends RequestHookName>(name: Name, listener: (event: RequestHooks[Name]) => void): void {
    this.listeners(name).delete(listener);
  }

  async send<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    const apiKey = this.config.apiKey;
    if (apiKey === undefined) {
      throw new AuthenticationError({
        code: 'authentication_required',
        message:
          'This client was made without an API key, to verify webhooks by the endpoint secret: it sent nothing. Make one with new Payments(key) (sk_test_…, sk_live_…, rk_test_… or rk_live_…) to call the API.',
      });
    }
    const options = request.options ?? {};
    const signal = options.signal;
    const url = this.url(request.path, request.query);
    const path = new URL(url).pathname;
    if (signal?.aborted) throw aborted(request.method, path, signal);
    const idempotencyKey = request.method === 'GET' ? undefined : (options.idempotencyKey ?? this.config.crypto.randomUUID());
    const headers: Record<string, string> = {
      ...callHeaders(options.headers),
      authorization: `Bearer ${apiKey}`,
      // Errors come as JSON whatever the call asks for.
      accept: request.format === 'csv' ? 'text/csv, application/json' : 'application/json',
      'user-agent': this.config.userAgent,
    };
    const apiVersion = options.apiVersion ?? this.config.apiVersion;
    if (apiVersion) headers['api-version'] = apiVersion;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (request.method === 'GET' && request.body !== undefined) throw new TypeError('A GET request has no body: pass query parameters instead.');
    const body = request.method === 'GET' ? undefined : JSON.stringify(request.body ?? {});
    if (body !== undefined) headers['content-type'] = 'application/json';

    const maxRetries = options.maxNetworkRetries ?? this.config.maxNetworkRetries;
    const timeout = options.timeout ?? this.config.timeout;
    for (let attempt = 1; ; attempt += 1) {
      const started: RequestEvent = { method: request.method, path, attempt, idempotencyKey, apiVersion, requestStartTime: Date.now() };
      this.emit('request', started);
      const outcome = await this.tryOnce(request.method, url, headers, body, timeout, signal);
      const requestEndTime = Date.now();
      const ended = { ...started, requestEndTime, elapsed: requestEndTime - started.requestStartTime };
      const retriesLeft = attempt <= maxRetries;
      if (outcome.kind === 'no_answer') {
        const willRetry = retriesLeft && !outcome.aborted;
        this.emit('response', { ...ended, status: undefined, requestId: undefined, error: outcome.error, willRetry });
        if (!willRetry) throw outcome.error;
        await sleep(backoffDelay(attempt, this.config.backoff), signal, () => aborted(request.method, path, signal));
        continue;
      }
      const { response, text } = outcome;
      const requestId = response.headers.get('request-id') ?? response.headers.get('x-request-id') ?? undefined;
      const lastResponse: LastResponse = { statusCode: response.status, headers: headersOf(response), requestId, idempotencyKey, attempts: attempt };
      if (response.status < 300) {
        this.emit('response', { ...ended, status: response.status, requestId, error: undefined, willRetry: false });
        this.onResponse?.({
          status: response.status,
          requestId,
          idempotencyKey,
          replayed: response.headers.get('idempotent-replayed') === 'true',
          attempts: attempt,
        });
        const answer = request.format === 'csv' ? csvFileOf(text, lastResponse) : parseJson(text, lastResponse, () => this.config.crypto.randomUUID());
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the caller names the documented answer; types-agree holds the SDK's types to the API document
        return withLastResponse(answer, lastResponse) as ApiResponse<T>;
      }
      const error = withLastResponse(this.errorOf(response, text, requestId), lastResponse);
      const waitMs = retriesLeft ? this.retryDelay(response, error, attempt) : undefined;
      this.emit('response', { ...ended, status: response.status, requestId, error: undefined, willRetry: waitMs !== undefined });
      if (waitMs === undefined) throw error;
      await sleep(waitMs, signal, () => aborted(request.method, path, signal));
    }
  }

  private listeners<Name extends RequestHookName>(name: Name): Set<(event: RequestHooks[Name]) => void> {
    if (name !== 'request' && name !== 'response') throw new TypeError(`No such event: ${String(name)} (the client emits 'request' and 'response').`);
    return this.hooks[name];
  }

  /** Tells every listener; a listener that throws is skipped, so a logging bug cannot fail a payment call. */
  private emit<Name extends RequestHookName>(name: Name, event: RequestHooks[Name]): void {
    for (const listener of this.listeners(name)) {
      try {
        listener(event);
      } catch {
        // The call goes on; the listener's own error handling is its business.
      }
    }
  }

  private async tryOnce(
    method: HttpMethod,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeout: number,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeout);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.config.httpClient.request({ method, url, headers, ...(body === undefined ? {} : { body }), signal: controller.signal });
      // The timeout covers the body too: a server that stalls mid-answer is as unreachable as one that never answers.
      const text = await response.text();
      return { kind: 'answer', response, text };
    } catch (cause) {
      const path = new URL(url).pathname;
      if (signal?.aborted) return { kind: 'no_answer', error: aborted(method, path, signal), aborted: true };
      const message = controller.signal.aborted
        ? `No answer from ${method} ${path} within ${timeout} ms.`
        : `Could not reach the API (${method} ${path}): ${cause instanceof Error ? cause.message : String(cause)}`;
      return {
        kind: 'no_answer',
        error: new ApiConnectionError({ message, code: controller.signal.aborted ? 'timeout' : 'connection_error', cause }),
        aborted: false,
      };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** How long to wait before retrying this answer, or undefined when it must not be retried. */
  private retryDelay(response: HttpResponse, error: PaymentsError, attempt: number): number | undefined {
    if (!isRetryableStatus(response.status, error.code)) return undefined;
    const asked = retryAfterMs(response.headers.get('retry-after'));
    if (asked !== undefined) return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
    return backoffDelay(attempt, this.config.backoff);
  }

  private errorOf(response: HttpResponse, text: string, requestId: string | undefined): PaymentsError {
    const body = errorBodyOf(text);
    const retryAfter = retryAfterMs(response.headers.get('retry-after'));
    return errorFromResponse(response.status, body, requestId, retryAfter === undefined ? undefined : retryAfter / 1000);
  }

  /** Whether `path`, relative to the base URL, stays under it (no `..` out of it, no other host). */
  keepsToBase(path: string): boolean {
    const base = this.url('', undefined);
    return this.url(path, undefined).startsWith(base);
  }

  private url(path: string, query: Record<string, QueryValue> | undefined): string {
    const url = new URL(path, this.config.baseUrl.endsWith('/') ? this.config.baseUrl : `${this.config.baseUrl}/`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value instanceof Date ? value.toISOString() : String(value));
    }
    return url.toString();
  }
}

/** The caller's extra headers, names in lower case, refusing those only the SDK sets. */
function callHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    const refusal = RESERVED_HEADERS[lower];
    if (refusal !== undefined) throw new TypeError(`The headers option cannot carry ${refusal}.`);
    if (typeof value !== 'string') throw new TypeError(`The header ${name} must be a string.`);
    out[lower] = value;
  }
  return out;
}

function aborted(method: string, path: string, signal: AbortSignal | undefined): RequestAbortedError {
  return new RequestAbortedError({ message: `${method} ${path} was aborted by its signal.`, code: 'request_aborted', cause: signal?.reason });
}

/** Waits `ms`, or rejects at once with `onAbort()` when `signal` aborts meanwhile. */
function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const abort = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Every header of an answer when its client can list them, else the ones the SDK reads. */
function headersOf(response: HttpResponse): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof response.headers.forEach === 'function') {
    response.headers.forEach((value, name) => (out[name.toLowerCase()] = value));
    return out;
  }
  for (const name of ['content-type', 'content-disposition', 'request-id', 'x-request-id', 'idempotent-replayed', 'retry-after']) {
    const value = response.headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** Attaches `lastResponse` to an object without making it enumerable (JSON.stringify and spreading ignore it). */
export function withLastResponse<T>(target: T, lastResponse: LastResponse): T {
  if (typeof target === 'object' && target !== null)
    Object.defineProperty(target, 'lastResponse', { value: lastResponse, enumerable: false, configurable: true });
  return target;
}

/** The `error` object of an error answer, its fields kept when they are text. */
function errorBodyOf(text: string): ApiErrorBody | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = typeof parsed === 'object' && parsed !== null && 'error' in parsed ? parsed.error : undefined;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, param, request_id }: { code?: unknown; message?: unknown; param?: unknown; request_id?: unknown } = error;
  const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { code: textOf(code), message: textOf(message), param: textOf(param), request_id: textOf(request_id) };
}

/**
 * A CSV answer as a CsvFile: its text (without a byte order mark, should the HTTP client have left
 * one) and the name its Content-Disposition gives it.
 */
function csvFileOf(text: string, lastResponse: LastResponse): CsvFile {
  if (!/^text\/csv\b/i.test(lastResponse.headers['content-type'] ?? '')) {
    throw withLastResponse(
      new ApiError({
        message: `The API answered ${lastResponse.statusCode} with a body that is not CSV.`,
        statusCode: lastResponse.statusCode,
        requestId: lastResponse.requestId,
      }),
      lastResponse,
    );
  }
  const filename = /filename="([^"]+)"/.exec(lastResponse.headers['content-disposition'] ?? '')?.[1] ?? 'export.csv';
  return { filename, text: text.replace(/^\uFEFF/, '') };
}

function parseJson(text: string, lastResponse: LastResponse, nonce: () => string): unknown {
  try {
    return parseExactJson(text, nonce);
  } catch (cause) {
    throw withLastResponse(
      new ApiError({
        message: `The API answered ${lastResponse.statusCode} with a body that is not JSON.`,
        statusCode: lastResponse.statusCode,
        requestId: lastResponse.requestId,
        cause,
      }),
      lastResponse,
    );
  }
}
