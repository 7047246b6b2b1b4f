import * as http from 'node:http';
import { listenOnLoopback } from '../e2e/process';
import { jsonAt } from '../fixtures';

/** A round-robin HTTP balancer in front of the API processes, as a load balancer would stand. */
export interface RoundRobinProxy {
  readonly port: number;
  readonly url: string;
  /** Requests forwarded to upstream `index` and not yet answered: who is mid-request. */
  inFlight(index: number): number;
  /** Takes an upstream out of (false) or back into (true) the rotation, like a failed/passed health check. */
  setUp(index: number, up: boolean): void;
  /** Answers the proxy gave itself because no upstream answered (502). */
  readonly stats: { forwarded: number; skipped: number; failed: number };
  /** Every answer the clients got, by HTTP status (the proxy's own 502s included): what a client saw during a fault. */
  readonly statuses: Record<number, number>;
  /** Upstream answers of 500 or more other than 503, as `status METHOD path` (at most 50): what must not happen during an outage. */
  readonly serverErrors: string[];
  /** 503 answers that broke the contract: no Retry-After, or not the `api_error` envelope (at most 50). */
  readonly badUnavailable: string[];
  /** Upstream error answers by `status code` (`409 idempotency_key_in_use`): what the clients' retries met. */
  readonly errorCodes: Record<string, number>;
  /** Every request the proxy took, when it came and when its answer's head went out (undefined: not yet, or never). */
  readonly timings: Array<{ readonly request: string; readonly startedAt: number; answeredAt: number | undefined; status: number | undefined }>;
  close(): Promise<void>;
}

/**
 * Starts the balancer on a free port. The request body is buffered, so a refused connection
 * (an upstream that is down) is tried on the next upstream; an upstream that dies once it has
 * the request answers 502, which the SDK retries with the same Idempotency-Key.
 */
export async function startRoundRobinProxy(upstreamPorts: readonly number[]): Promise<RoundRobinProxy> {
  const up = upstreamPorts.map(() => true);
  const inFlight = upstreamPorts.map(() => 0);
  const stats = { forwarded: 0, skipped: 0, failed: 0 };
  const statuses: Record<number, number> = {};
  const serverErrors: string[] = [];
  const badUnavailable: string[] = [];
  const errorCodes: Record<string, number> = {};
  const timings: RoundRobinProxy['timings'] = [];
  const saw = (status: number): void => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  let next = 0;

  const pick = (): number => {
    for (let i = 0; i < upstreamPorts.length; i += 1) {
      const index = (next + i) % upstreamPorts.length;
      if (up[index]) {
        next = index + 1;
        return index;
      }
    }
    // Everything marked down: try anyway (a restarted process may be back before it is marked up).
    next += 1;
    return next % upstreamPorts.length;
  };

  const server = http.createServer((req, res) => {
    const timing: RoundRobinProxy['timings'][number] = { request: `${req.method} ${req.url}`, startedAt: Date.now(), answeredAt: undefined, status: undefined };
    timings.push(timing);
    const answered = (status: number): void => {
      timing.answeredAt = Date.now();
      timing.status = status;
    };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = (tries: number): void => {
        const index = pick();
        inFlight[index] = (inFlight[index] ?? 0) + 1;
        let done = false;
        const finish = (): void => {
          if (done) return;
          done = true;
          inFlight[index] = (inFlight[index] ?? 1) - 1;
        };
        const upstream = http.request(
          { host: '127.0.0.1', port: upstreamPorts[index], method: req.method, path: req.url, headers: { ...req.headers, connection: 'close' }, agent: false },
          (answer) => {
            saw(answer.statusCode ?? 502);
            if ((answer.statusCode ?? 502) >= 500 && answer.statusCode !== 503 && serverErrors.length < 50)
              serverErrors.push(`${answer.statusCode} ${req.method} ${req.url}`);
            if ((answer.statusCode ?? 0) >= 400) {
              const parts: Buffer[] = [];
              answer.on('data', (chunk: Buffer) => parts.push(chunk));
              answer.on('end', () => {
                let code: unknown;
                try {
                  code = jsonAt(JSON.parse(Buffer.concat(parts).toString('utf8')), 'error', 'code');
                } catch {
                  code = undefined;
                }
                const label = `${answer.statusCode} ${String(code)}`;
                errorCodes[label] = (errorCodes[label] ?? 0) + 1;
                const retryAfter = answer.headers['retry-after'];
                if (answer.statusCode === 503 && (code !== 'api_error' || !retryAfter || !/^\d+$/.test(String(retryAfter))) && badUnavailable.length < 50)
                  badUnavailable.push(`${req.method} ${req.url}: code ${String(code)}, Retry-After ${String(retryAfter)}`);
              });
            }
            answered(answer.statusCode ?? 502);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('end', finish);
            answer.on('error', () => {
              finish();
              res.destroy();
            });
            answer.on('close', finish);
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          finish();
          if (res.headersSent) {
            res.destroy();
            return;
          }
          // Nothing reached a refused upstream: another one may take the request.
          if (error.code === 'ECONNREFUSED' && tries < upstreamPorts.length * 3) {
            stats.skipped += 1;
            up[index] = false;
            setTimeout(() => forward(tries + 1), tries >= upstreamPorts.length ? 100 : 0);
            return;
          }
          stats.failed += 1;
          saw(502);
          answered(502);
          res
            .writeHead(502, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { code: 'api_error', message: `upstream failed: ${error.code ?? error.message}` } }));
        });
        stats.forwarded += 1;
        upstream.end(body);
      };
      forward(0);
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    inFlight: (index) => inFlight[index] ?? 0,
    setUp: (index, state) => {
      up[index] = state;
    },
    stats,
    statuses,
    serverErrors,
    badUnavailable,
    errorCodes,
    timings,
    close,
  };
}
