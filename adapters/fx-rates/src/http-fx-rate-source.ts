import { CoreError, isRateString, type FxRateSource } from '@payments/core';
import { crossRate, tableProblem, type RateTable } from './rate-table';

export interface HttpFxRateSourceOptions {
  /** The rate feed; the source asks `GET {url}?base=USD` (docs/fx.md, "HTTP rate source"). */
  readonly url: string;
  /** Per request, connection and body included. Default 5 s. */
  readonly timeoutMs?: number;
  /** How long one fetched table is served before the next request fetches again. Default 60 s. */
  readonly cacheTtlMs?: number;
  /** The base currency asked for. Default USD. */
  readonly base?: string;
  /** Milliseconds now; tests replace it. */
  readonly now?: () => number;
}

/** A larger answer is not a rate table. */
const MAX_BODY_BYTES = 1024 * 1024;
const CURRENCY = /^[A-Z]{3}$/;

/** Why a fetch failed, for the log: never the body (it may echo a credential), never the URL. */
class RateFeedFailure extends Error {
  override readonly name = 'RateFeedFailure';
}

/** A network failure named by its kind and code (TimeoutError, ECONNREFUSED), nothing more. */
function unreachable(error: unknown): RateFeedFailure {
  const name = error instanceof Error ? error.name : 'error';
  const cause = typeof error === 'object' && error !== null && 'cause' in error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? cause.code : undefined;
  return new RateFeedFailure(`FX rate feed unreachable: ${name}${typeof code === 'string' ? ` (${code})` : ''}`);
}

/**
 * Mid rates from an HTTP rate feed for production. One table is fetched at a time and served for
 * `cacheTtlMs`; concurrent callers share one request. A timeout, a non-2xx answer or a malformed
 * body (a rate sent as a JSON number, a non-decimal string, a base other than the one asked)
 * throws CoreError `api_error` (unavailable, 503) and caches nothing, so the next request tries
 * again. A currency the feed does not quote is `unsupported_currency_pair` (400).
 */
export class HttpFxRateSource implements FxRateSource {
  private readonly url: URL;
  private readonly timeoutMs: number;
  private readonly cacheTtlMs: number;
  private readonly base: string;
  private readonly now: () => number;
  private cached: { table: RateTable; fetchedAt: number } | undefined;
  private inFlight: Promise<RateTable> | undefined;

  constructor(options: HttpFxRateSourceOptions) {
    this.url = new URL(options.url);
    if (this.url.protocol !== 'https:' && this.url.protocol !== 'http:') throw new Error('The FX rate URL must be http or https.');
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.cacheTtlMs = options.cacheTtlMs ?? 60_000;
    this.base = options.base ?? 'USD';
    this.now = options.now ?? Date.now;
    this.url.searchParams.set('base', this.base);
  }

  async midRate(from: string, to: string): Promise<string> {
    return crossRate(await this.table(), from, to);
  }

  /** The current table: the cached one while fresh, else one fetch shared by every caller. */
  async table(): Promise<RateTable> {
    if (this.cached && this.now() - this.cached.fetchedAt < this.cacheTtlMs) return this.cached.table;
    this.inFlight ??= this.fetchTable().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchTable(): Promise<RateTable> {
    try {
      const table = await this.download();
      this.cached = { table, fetchedAt: this.now() };
      return table;
    } catch (error) {
      throw new CoreError('api_error', 'unavailable', 'FX rates are unavailable right now; retry shortly.', {
        retryAfterSeconds: 5,
        cause: error instanceof RateFeedFailure ? error : unreachable(error),
      });
    }
  }

  private async download(): Promise<RateTable> {
    const response = await fetch(this.url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new RateFeedFailure(`FX rate feed answered HTTP ${response.status}`);
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_BODY_BYTES) {
      await response.body?.cancel();
      throw new RateFeedFailure('FX rate feed answer too large');
    }
    const text = await response.text();
    if (text.length > MAX_BODY_BYTES) throw new RateFeedFailure('FX rate feed answer too large');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new RateFeedFailure('FX rate feed answer is not JSON');
    }
    return this.parse(body);
  }

  private parse(body: unknown): RateTable {
    const malformed = (why: string): never => {
      throw new RateFeedFailure(`FX rate feed answer malformed: ${why}`);
    };
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return malformed('not an object');
    const { base, as_of: asOf, rates }: { base?: unknown; as_of?: unknown; rates?: unknown } = body;
    if (base !== this.base) return malformed(`base is not ${this.base}`);
    if (typeof asOf !== 'string' || Number.isNaN(Date.parse(asOf))) return malformed('as_of is not a date');
    if (typeof rates !== 'object' || rates === null || Array.isArray(rates)) return malformed('rates is not an object');
    const checked: Record<string, string> = {};
    for (const [currency, rate] of Object.entries(rates)) {
      if (!CURRENCY.test(currency)) return malformed('a rate key is not a currency code');
      // A JSON number has already lost digits to a float: refuse it rather than guess.
      if (!isRateString(rate)) return malformed(`the rate of ${currency} is not a positive decimal string`);
      checked[currency] = rate;
    }
    if (Object.keys(checked).length === 0) return malformed('no rates');
    const table: RateTable = { base: this.base, asOf, rates: checked };
    const problem = tableProblem(table);
    return problem ? malformed(problem) : table;
  }
}
