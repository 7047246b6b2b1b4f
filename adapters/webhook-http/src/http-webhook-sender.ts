import { lookup as dnsLookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { WebhookRequest, WebhookResponse, WebhookSender } from '@payments/core';
import { EgressGuard, normalizeAddress } from './egress-guard';

export interface HttpWebhookSenderOptions {
  /**
   * Addresses the egress guard lets through (PAYMENTS_EGRESS_ALLOW), for local tests only: the
   * configuration refuses it in production. `http:` URLs are sent only when every address of the
   * host is in this list.
   */
  readonly egressAllow?: readonly string[];
  /** Host name → IP address, like curl `--resolve` (PAYMENTS_DNS_OVERRIDES). The guard still applies. */
  readonly dnsOverrides?: Readonly<Record<string, string>>;
  /**
   * Trusted CAs, replacing the system store: for tests only. Production leaves it unset (the
   * system store plus NODE_EXTRA_CA_CERTS).
   */
  readonly ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** How many bytes of the response body are read before the connection is dropped (default 1024). */
  readonly maxResponseBytes?: number;
  /** Resolves a host name to all its addresses (default: `dns.lookup` with `all: true`). */
  readonly resolve?: (hostname: string) => Promise<readonly string[]>;
  /** Told once at construction when an allow-list is set (pino-compatible). */
  readonly logger?: { warn(fields: object, message: string): void };
  /** Sent as User-Agent unless the request carries one. */
  readonly userAgent?: string;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024;
const RESPONSE_GRACE_MS = 1000;

/** A failure of one attempt, with a message for a person (no body, no URL path, no secret). */
class SendFailure extends Error {}

/**
 * POSTs a webhook with node:https (node:http only to allow-listed addresses). Resolves the host,
 * refuses the whole delivery when any address is not public unicast, connects to exactly the
 * checked address through a pinned `lookup` (no second DNS answer can slip in) while SNI and Host
 * stay the URL's host name, re-checks the address the socket connected to before anything is
 * written, follows no redirect, reads at most `maxResponseBytes` of the answer and gives up after
 * `timeoutMs` in total. Never throws.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly guard: EgressGuard;
  private readonly overrides: ReadonlyMap<string, string>;
  private readonly maxResponseBytes: number;
  private readonly resolveHost: (hostname: string) => Promise<readonly string[]>;
  /**
   * One TLS context (trusted CAs, protocol defaults) for every connection: making one per
   * connection (what `https.request` does without it) cost about a tenth of a delivery's CPU.
   * Each connection still verifies the endpoint's certificate and name, and resumes no session.
   */
  private secureContext: SecureContext | undefined;

  constructor(private readonly options: HttpWebhookSenderOptions = {}) {
    this.guard = new EgressGuard(options.egressAllow ?? []);
    const overrides = new Map<string, string>();
    for (const [host, ip] of Object.entries(options.dnsOverrides ?? {})) {
      if (normalizeAddress(ip) === undefined) throw new Error(`Not an IP address in the DNS overrides: ${host}=${ip}`);
      overrides.set(host.toLowerCase(), ip);
    }
    this.overrides = overrides;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.resolveHost = options.resolve ?? (async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address));
    if ((options.egressAllow ?? []).length > 0) {
      options.logger?.warn(
        { egressAllow: options.egressAllow },
        'PAYMENTS_EGRESS_ALLOW is set: webhooks may be sent to these non-public addresses (and over plain http). Local testing only.',
      );
    }
  }

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const latencyMs = (): number => Math.max(0, Math.round(performance.now() - started));
    let timer: NodeJS.Timeout | undefined;
    const abort = new AbortController();
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          const failure = new SendFailure(`timed out after ${request.timeoutMs} ms`);
          abort.abort(failure);
          reject(failure);
        },
        Math.max(0, request.timeoutMs),
      );
    });
    deadline.catch(() => undefined);
    const answered: { status?: number; body?: Buffer[] } = {};
    // What the endpoint answered, up to the bytes read: shown to its merchant in the delivery log.
    const body = (): { body?: string } => {
      const bytes = Buffer.concat(answered.body ?? []).subarray(0, this.maxResponseBytes);
      return bytes.length === 0 ? {} : { body: new TextDecoder('utf-8', { fatal: false }).decode(bytes) };
    };
    try {
      // An attempt that settled is over (answer read or dropped, request destroyed); only the
      // deadline aborts one still under way. No abort after the fact: that made two errors a send.
      const status = await Promise.race([this.attempt(request, abort.signal, answered), deadline]).catch((error: unknown) => {
        // The status line came in time and only the (unread) rest of the answer was slow: that is the answer.
        if (answered.status !== undefined) return answered.status;
        throw error;
      });
      if (status >= 200 && status < 300) return { status, latencyMs: latencyMs(), ...body() };
      const error = status >= 300 && status < 400 ? `endpoint answered ${status}; redirects are not followed` : `endpoint answered ${status}`;
      return { status, error, latencyMs: latencyMs(), ...body() };
    } catch (error) {
      return { error: describe(error), latencyMs: latencyMs() };
    } finally {
      clearTimeout(timer);
    }
  }

  /** One POST; resolves with the status, rejects with a SendFailure or a Node error. */
  private async attempt(request: WebhookRequest, signal: AbortSignal, answered: { status?: number; body?: Buffer[] }): Promise<number> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new SendFailure('the endpoint URL is not a valid URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SendFailure(`scheme ${url.protocol} is refused; https only`);
    if (url.username !== '' || url.password !== '') throw new SendFailure('credentials in the endpoint URL are refused');
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (hostname === '') throw new SendFailure('the endpoint URL has no host');

    const addresses = await this.addressesOf(hostname);
    if (signal.aborted) throw signal.reason;
    for (const address of addresses) {
      const refusal = this.guard.refusal(address);
      if (refusal !== undefined) throw new SendFailure(`refused: ${url.hostname} resolves to a non-public address (${refusal})`);
    }
    if (url.protocol === 'http:' && !addresses.every((address) => this.guard.isAllowListed(address))) {
      throw new SendFailure('plain http is refused; https only');
    }
    const pinned = addresses[0];
    return this.post(url, hostname, pinned, request, signal, answered);
  }

  private async addressesOf(hostname: string): Promise<readonly string[]> {
    if (isIP(hostname) !== 0) return [hostname];
    const override = this.overrides.get(hostname.toLowerCase().replace(/\.$/, ''));
    if (override !== undefined) return [override];
    let addresses: readonly string[];
    try {
      addresses = await this.resolveHost(hostname);
    } catch (error) {
      const code = errorCode(error);
      throw new SendFailure(`DNS lookup of ${hostname} failed${code ? ` (${code})` : ''}`);
    }
    if (addresses.length === 0) throw new SendFailure(`DNS lookup of ${hostname} found no address`);
    return addresses;
  }

  private post(
    url: URL,
    hostname: string,
    pinned: string,
    request: WebhookRequest,
    signal: AbortSignal,
    answered: { status?: number; body?: Buffer[] },
  ): Promise<number> {
    const body = Buffer.from(request.body, 'utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      const lower = name.toLowerCase();
      if (lower === 'host' || lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') continue;
      headers[name] = value;
    }
    const has = (name: string): boolean => Object.keys(headers).some((key) => key.toLowerCase() === name);
    if (!has('content-type')) headers['Content-Type'] = 'application/json; charset=utf-8';
    if (!has('user-agent')) headers['User-Agent'] = this.options.userAgent ?? 'payments-webhooks/1';
    headers['Content-Length'] = String(body.length);
    headers.Connection = 'close';

    const family = isIP(pinned) === 6 ? 6 : 4;
    // Hands net.connect exactly the address that was checked, whatever it asks for.
    const pinnedLookup: LookupFunction = (_host, options, callback) => {
      process.nextTick(() => {
        if (options && options.all) callback(null, [{ address: pinned, family }]);
        else callback(null, pinned, family);
      });
    };

    const common: http.RequestOptions = {
      method: 'POST',
      protocol: url.protocol,
      hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers,
      lookup: pinnedLookup,
      family,
      agent: false,
      signal,
    };

    return new Promise<number>((resolve, reject) => {
      let settled = false;
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      const done = (status: number): void => {
        if (settled) return;
        settled = true;
        resolve(status);
      };
      const onResponse = (res: http.IncomingMessage): void => {
        const status = res.statusCode ?? 0;
        answered.status = status;
        // A little time for a short answer to end cleanly, then the connection is dropped.
        const grace = setTimeout(() => {
          res.destroy();
          done(status);
        }, RESPONSE_GRACE_MS);
        res.on('close', () => clearTimeout(grace));
        let read = 0;
        const kept: Buffer[] = [];
        answered.body = kept;
        res.on('data', (chunk: Buffer) => {
          // Up to maxResponseBytes are kept (the delivery log shows them); the rest is never read.
          if (read < this.maxResponseBytes) kept.push(chunk.subarray(0, this.maxResponseBytes - read));
          read += chunk.length;
          if (read >= this.maxResponseBytes) {
            res.destroy();
            done(status);
          }
        });
        res.on('end', () => done(status));
        res.on('close', () => done(status));
        res.on('error', () => done(status));
      };
      let req: http.ClientRequest;
      if (url.protocol === 'https:') {
        const { ca } = this.options;
        this.secureContext ??= createSecureContext(ca === undefined ? {} : { ca: typeof ca === 'string' || Buffer.isBuffer(ca) ? ca : [...ca] });
        const tls: https.RequestOptions & { secureContext: SecureContext } = {
          ...common,
          rejectUnauthorized: true,
          ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
          secureContext: this.secureContext,
        };
        req = https.request(tls, onResponse);
      } else {
        req = http.request(common, onResponse);
      }
      req.on('socket', (socket: Socket) => {
        // Runs before the request's own 'connect' handler writes anything.
        socket.prependOnceListener('connect', () => {
          const remote = socket.remoteAddress;
          const refusal = remote === undefined ? 'no remote address' : this.guard.refusal(remote);
          if (refusal !== undefined || normalizeAddress(remote ?? '') !== normalizeAddress(pinned)) {
            const failure = new SendFailure(`refused: connected address is not the checked one or not public (${refusal ?? 'mismatch'})`);
            socket.destroy(failure);
            fail(failure);
          }
        });
      });
      req.on('error', (error) => fail(signal.aborted && signal.reason instanceof SendFailure ? signal.reason : error));
      req.end(body);
    });
  }
}

/** A Node error's code (ECONNREFUSED, ENOTFOUND, …), if it has one. */
function errorCode(error: unknown): string | undefined {
  const code: unknown = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function describe(error: unknown): string {
  if (error instanceof SendFailure) return error.message;
  const code = errorCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (ECONNREFUSED)';
    case 'ECONNRESET':
      return 'connection reset by the endpoint (ECONNRESET)';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `endpoint unreachable (${code})`;
    case 'ETIMEDOUT':
      return 'connection timed out (ETIMEDOUT)';
    case 'ABORT_ERR':
      return 'request aborted';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS certificate refused (${code})`;
    default:
      if (code?.startsWith('ERR_SSL')) return `TLS handshake failed (${code})`;
      return code ? `request failed (${code})` : 'request failed';
  }
}
