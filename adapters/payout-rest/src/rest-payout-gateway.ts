import { readBoundedText } from '@payments/node-runtime';
import {
  CoreError,
  type DestinationVerification,
  type Mode,
  type PayoutAccount,
  type PayoutGateway,
  type PayoutRequest,
  type PayoutResult,
} from '@payments/core';
import { errorCodeOf, parsePayout, parseVerification } from './payout-protocol';
import { PAYOUT_SIGNATURE_HEADER, signPayoutRequest } from './request-signature';

/** Structured warnings; the details never hold an account number, a body or the secret. */
export interface PayoutLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface RestPayoutGatewayOptions {
  /** The provider's base URL (https in production). */
  readonly baseUrl: string;
  /** The shared secret requests are signed with (HMAC-SHA256). */
  readonly secret: string;
  /** Per request, connect to last byte (default 10 s). */
  readonly timeoutMs?: number;
  /** Further tries after the first, for transport failures, 408, 429 and 5xx (default 2). */
  readonly retries?: number;
  readonly retryBaseDelayMs?: number;
  readonly logger?: PayoutLogger;
  /** Time for the signature's timestamp (tests). */
  readonly now?: () => Date;
  /** Headers of the trace the call belongs to (W3C `traceparent`); none by default (tracing off). */
  readonly traceHeaders?: () => Readonly<Record<string, string>>;
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

const MAX_ANSWER_BYTES = 256 * 1024;

function unavailable(message: string): CoreError {
  return new CoreError('payout_provider_unavailable', 'unavailable', message, { retryAfterSeconds: 60 });
}

function isRetryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Live payouts through a provider that speaks docs/payouts/rest.md. Every call is idempotent
 * (verification asks, payouts are keyed by the settlement id), so each is retried with capped
 * exponential backoff and jitter; when no usable answer comes the call throws CoreError
 * `unavailable` and the settlement job asks again later with the same reference.
 */
export class RestPayoutGateway implements PayoutGateway {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryBaseDelayMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: RestPayoutGatewayOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = options.retries ?? 2;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 200;
    this.now = options.now ?? ((): Date => new Date());
  }

  supports(mode: Mode): boolean {
    return mode === 'live';
  }

  async verifyDestination(mode: Mode, account: PayoutAccount): Promise<DestinationVerification> {
    this.liveOnly(mode);
    const answer = await this.call('POST', '/v1/account_verifications', {
      account_holder: account.accountHolder,
      bank_code: account.bankCode,
      account_number: account.accountNumber,
    });
    const verdict = answer.status === 200 ? parseVerification(answer.body) : undefined;
    if (!verdict) throw this.badAnswer('verify', answer);
    return verdict;
  }

  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    this.liveOnly(request.mode);
    const answer = await this.call('POST', '/v1/payouts', {
      reference: request.reference,
      amount: request.amount.amount,
      currency: request.amount.currency,
      destination: {
        account_holder: request.destination.accountHolder,
        bank_code: request.destination.bankCode,
        account_number: request.destination.accountNumber,
      },
    });
    if (answer.status === 200 || answer.status === 201) {
      const result = parsePayout(answer.body, { reference: request.reference, amount: request.amount.amount, currency: request.amount.currency });
      if (result) return result;
    }
    // Refused outright (the account is closed, the currency not served): a failed payout.
    if (answer.status === 422) return { status: 'failed', failureReason: errorCodeOf(answer.body) ?? 'payout_refused' };
    throw this.badAnswer('create', answer);
  }

  async queryPayout(mode: Mode, reference: string): Promise<PayoutResult | undefined> {
    this.liveOnly(mode);
    const answer = await this.call('GET', `/v1/payouts/${encodeURIComponent(reference)}`);
    if (answer.status === 404 && errorCodeOf(answer.body) === 'payout_not_found') return undefined;
    const result = answer.status === 200 ? parsePayout(answer.body, { reference }) : undefined;
    if (!result) throw this.badAnswer('query', answer);
    return result;
  }

  private liveOnly(mode: Mode): void {
    if (mode !== 'live') throw new CoreError('payout_mode_unsupported', 'internal', 'The rest payout provider serves live mode only.');
  }

  /** Logs what went wrong (status and the provider's error code only) and gives up for now. */
  private badAnswer(operation: string, answer: Answer): CoreError {
    this.options.logger?.warn({ operation, status: answer.status, code: errorCodeOf(answer.body) }, 'payout provider answer refused');
    return unavailable(`The payout provider gave no usable answer (${operation}, HTTP ${answer.status}).`);
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    const rawBody = body === undefined ? '' : JSON.stringify(body);
    for (let retry = 0; ; retry += 1) {
      let reason: string;
      try {
        const answer = await this.send(method, path, rawBody);
        if (!isRetryable(answer.status) || retry >= this.retries) return answer;
        reason = `HTTP ${answer.status}`;
      } catch (error) {
        if (retry >= this.retries) throw error instanceof CoreError ? error : unavailable('The payout provider could not be reached.');
        reason = error instanceof CoreError ? error.code : 'connection';
      }
      this.options.logger?.warn(
        { path: path.startsWith('/v1/payouts/') ? '/v1/payouts/{reference}' : path, retry: retry + 1, reason },
        'payout provider call retried',
      );
      const ceiling = this.retryBaseDelayMs * 2 ** retry;
      await new Promise((resolve) => setTimeout(resolve, ceiling / 2 + Math.random() * (ceiling / 2)));
    }
  }

  private async send(method: 'GET' | 'POST', path: string, rawBody: string): Promise<Answer> {
    const timestamp = Math.floor(this.now().getTime() / 1000);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...this.options.traceHeaders?.(),
          accept: 'application/json',
          'user-agent': 'payments-payout-rest/1',
          [PAYOUT_SIGNATURE_HEADER]: signPayoutRequest(this.options.secret, method, path, rawBody, timestamp),
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { body: rawBody } : {}),
        redirect: 'manual',
        signal,
      });
      const body = await readBoundedText(response, MAX_ANSWER_BYTES);
      if (body === undefined) throw unavailable('The payout provider answered with an oversized body.');
      return { status: response.status, body };
    } catch (error) {
      if (error instanceof CoreError) throw error;
      throw unavailable(signal.aborted ? 'The payout provider did not answer in time.' : 'The payout provider could not be reached.');
    }
  }
}

/** The live payout gateway the configuration names, or undefined (live settlements then wait). */
export function createRestPayoutGateway(
  settings: { baseUrl: string; secret: string } | undefined,
  options: Omit<RestPayoutGatewayOptions, 'baseUrl' | 'secret'> = {},
): RestPayoutGateway | undefined {
  return settings ? new RestPayoutGateway({ ...options, ...settings }) : undefined;
}
