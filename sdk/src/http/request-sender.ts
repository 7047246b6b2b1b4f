import type { CryptoProvider } from '../crypto/crypto-provider.js';
import { ApiConnectionError, ApiError, errorFromResponse, type ApiErrorBody, type PaymentsError } from '../errors.js';
import type { RequestOptions } from '../types.js';
import { parseExactJson } from './exact-json.js';
import type { HttpClient, HttpResponse } from './http-client.js';
import { backoffDelay, isRetryableStatus, MAX_RETRY_AFTER_MS, retryAfterMs, type BackoffOptions } from './retry.js';

export interface RequestSenderConfig {
  apiKey: string;
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
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, QueryValue>;
  body?: object;
  options?: RequestOptions;
}

/** What the SDK remembers of the last answer (for logs and support: the request id). */
export interface ResponseInfo {
  status: number;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
  replayed: boolean;
  /** How many tries the call took (1 when it needed no retry). */
  attempts: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends requests: authentication, versions, one Idempotency-Key per POST kept across its
 * retries, timeouts, retries with backoff, and the mapping of errors to classes.
 */
export class RequestSender {
  /** Called after each answered call. */
  onResponse: ((info: ResponseInfo) => void) | undefined;

  constructor(private readonly config: RequestSenderConfig) {}

  async send<T>(request: ApiRequest): Promise<T> {
    const options = request.options ?? {};
    const url = this.url(request.path, request.query);
    const idempotencyKey = request.method === 'POST' ? (options.idempotencyKey ?? this.config.crypto.randomUUID()) : undefined;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.config.apiKey}`,
      accept: 'application/json',
      'user-agent': this.config.userAgent,
    };
    const apiVersion = options.apiVersion ?? this.config.apiVersion;
    if (apiVersion) headers['api-version'] = apiVersion;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const body = request.method === 'POST' ? JSON.stringify(request.body ?? {}) : undefined;
    if (body !== undefined) headers['content-type'] = 'application/json';

    const maxRetries = options.maxNetworkRetries ?? this.config.maxNetworkRetries;
    const timeout = options.timeout ?? this.config.timeout;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.tryOnce(request.method, url, headers, body, timeout);
      const retriesLeft = attempt <= maxRetries;
      if (outcome.kind === 'answer') {
        const { response, text } = outcome;
        const requestId = response.headers.get('request-id') ?? response.headers.get('x-request-id') ?? undefined;
        if (response.status < 300) {
          this.onResponse?.({
            status: response.status,
            requestId,
            idempotencyKey,
            replayed: response.headers.get('idempotent-replayed') === 'true',
            attempts: attempt,
          });
          // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the caller names the documented answer; types-agree holds the SDK's types to the API document
          return parseJson(text, response.status, requestId, () => this.config.crypto.randomUUID()) as T;
        }
        const error = this.errorOf(response, text, requestId);
        const waitMs = this.retryDelay(response, error, attempt);
        if (!retriesLeft || waitMs === undefined) throw error;
        await sleep(waitMs);
      } else {
        if (!retriesLeft) throw outcome.error;
        await sleep(backoffDelay(attempt, this.config.backoff));
      }
    }
  }

  private async tryOnce(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeout: number,
  ): Promise<{ kind: 'answer'; response: HttpResponse; text: string } | { kind: 'no_answer'; error: ApiConnectionError }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeout);
    try {
      const response = await this.config.httpClient.request({ method, url, headers, ...(body === undefined ? {} : { body }), signal: controller.signal });
      // The timeout covers the body too: a server that stalls mid-answer is as unreachable as one that never answers.
      const text = await response.text();
      return { kind: 'answer', response, text };
    } catch (cause) {
      const message = controller.signal.aborted
        ? `No answer from ${method} ${new URL(url).pathname} within ${timeout} ms.`
        : `Could not reach the API (${method} ${new URL(url).pathname}): ${cause instanceof Error ? cause.message : String(cause)}`;
      return { kind: 'no_answer', error: new ApiConnectionError({ message, code: controller.signal.aborted ? 'timeout' : 'connection_error', cause }) };
    } finally {
      clearTimeout(timer);
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

  private url(path: string, query: Record<string, QueryValue> | undefined): string {
    const url = new URL(path, this.config.baseUrl.endsWith('/') ? this.config.baseUrl : `${this.config.baseUrl}/`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value instanceof Date ? value.toISOString() : String(value));
    }
    return url.toString();
  }
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

function parseJson(text: string, status: number, requestId: string | undefined, nonce: () => string): unknown {
  try {
    return parseExactJson(text, nonce);
  } catch (cause) {
    throw new ApiError({ message: `The API answered ${status} with a body that is not JSON.`, statusCode: status, requestId, cause });
  }
}
