/**
 * The HTTP side of the rest channel: one request with a timeout over its whole life (connect,
 * headers and body), a bounded body, and capped exponential backoff with jitter for the calls
 * that are safe to repeat. Nothing here reads or logs a body or a key.
 */

import { readBoundedText } from '@payments/node-runtime';

/** A channel's answer, read in full. */
export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

/** Why no answer came; `reason` is ours (never the channel's text) and safe to log. */
export class TransportFailure extends Error {
  constructor(readonly reason: 'timeout' | 'connection' | 'too_large') {
    super(
      reason === 'timeout'
        ? 'The channel did not answer in time.'
        : reason === 'too_large'
          ? 'The channel answered with an oversized body.'
          : 'The channel could not be reached.',
    );
    this.name = 'TransportFailure';
  }
}

export const MAX_ANSWER_BYTES = 1024 * 1024;

export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly apiKey: string;
  readonly body?: unknown;
  readonly timeoutMs: number;
  /** Further headers (the trace context, `traceparent`); never one of the protocol's own. */
  readonly extraHeaders?: Readonly<Record<string, string>>;
}

/** One request; throws `TransportFailure` when no complete answer came. */
export async function send(request: HttpRequest): Promise<HttpAnswer> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: {
        ...request.extraHeaders,
        authorization: `Bearer ${request.apiKey}`,
        accept: 'application/json',
        'user-agent': 'payments-channel-rest/1',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      // A protocol channel never redirects; a 3xx is an answer we refuse, not one we follow with our key.
      redirect: 'manual',
      signal,
    });
    const body = await readBoundedText(response, MAX_ANSWER_BYTES);
    if (body === undefined) throw new TransportFailure('too_large');
    return { status: response.status, body };
  } catch (error) {
    if (error instanceof TransportFailure) throw error;
    throw new TransportFailure(signal.aborted ? 'timeout' : 'connection');
  }
}

/** Statuses after which the same request may well succeed. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export interface RetryPolicy {
  /** Further tries after the first. */
  readonly retries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** The wait before retry `n` (1-based): base·2^(n−1), capped, with "equal jitter" (half fixed, half random). */
export function backoffDelay(policy: RetryPolicy, retry: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export type RetryObserver = (details: { readonly retry: number; readonly reason: string }) => void;

/**
 * Sends an idempotent request, again after a transport failure or a retryable status, at most
 * `policy.retries` more times. Resolves with the last answer (whatever its status) or throws
 * the last `TransportFailure`.
 */
export async function sendWithRetries(request: HttpRequest, policy: RetryPolicy, onRetry?: RetryObserver): Promise<HttpAnswer> {
  for (let retry = 0; ; retry++) {
    let reason: string;
    try {
      const answer = await send(request);
      if (!isRetryableStatus(answer.status) || retry >= policy.retries) return answer;
      reason = `HTTP ${answer.status}`;
    } catch (error) {
      if (!(error instanceof TransportFailure) || retry >= policy.retries) throw error;
      reason = error.reason;
    }
    onRetry?.({ retry: retry + 1, reason });
    await new Promise((resolve) => setTimeout(resolve, backoffDelay(policy, retry + 1)));
  }
}
