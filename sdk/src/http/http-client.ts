export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One HTTP request as the SDK sends it. */
export interface HttpRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborted when the SDK's timeout passes or the caller's `signal` aborts. */
  signal: AbortSignal;
}

/** The parts of an HTTP answer the SDK reads. */
export interface HttpResponse {
  status: number;
  /** `forEach` (a fetch Headers has it) lets `lastResponse.headers` hold every header, not only those the SDK reads. */
  headers: { get(name: string): string | null; forEach?(callback: (value: string, name: string) => void): void };
  text(): Promise<string>;
}

/**
 * How the SDK talks HTTP: the global `fetch` by default (Node 18+, browsers, edge runtimes).
 * Pass your own (a proxy, a recorder in tests) as the `httpClient` option. A thrown error means
 * no answer arrived (connection refused or reset, DNS, abort) and is retried as such.
 */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}

/** The default client: the global `fetch`. */
export class FetchHttpClient implements HttpClient {
  constructor(private readonly fetchFunction: typeof fetch = globalThis.fetch) {
    if (typeof this.fetchFunction !== 'function') throw new Error('No global fetch: use Node 18 or later, or pass an httpClient.');
  }

  request(request: HttpRequest): Promise<HttpResponse> {
    // Called unbound: browsers refuse a fetch invoked as a method of another object ("Illegal invocation").
    const fetchFunction = this.fetchFunction;
    return fetchFunction(request.url, { method: request.method, headers: request.headers, body: request.body, signal: request.signal });
  }
}
