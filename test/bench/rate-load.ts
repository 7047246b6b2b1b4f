import { Agent, request as httpRequest } from 'node:http';
import type autocannon from 'autocannon';
import { LoadError } from './load';
import { materialise } from './scenarios';

/** One fixed-rate run: latencies measured here, in microseconds (autocannon's are whole ms). */
export interface RateSample {
  readonly targetRate: number;
  readonly achievedRate: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly completed: number;
  /** Requests unanswered after REQUEST_TIMEOUT_MS: counted at that latency (the server could not keep the rate). */
  readonly timeouts: number;
}

/** How often the scheduler wakes up to send what is due (requests are spread evenly in between). */
const TICK_MS = 1;
/** A request still unanswered after this long fails the run. */
const REQUEST_TIMEOUT_MS = 10_000;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * An open-loop load at a fixed overall rate: request i is sent at start + i / rate whatever the
 * previous answers did (autocannon's `overallRate` sends each connection's quota in a burst at the
 * start of every second, which measures bursts, not a steady 50 % load). Keep-alive connections
 * from one agent, as many as are in flight. Latency runs from the send to the last byte of the
 * answer, in µs from process.hrtime.
 */
export async function runFixedRate(label: string, baseUrl: string, template: autocannon.Request, rate: number, durationS: number): Promise<RateSample> {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.max(1, Math.round(rate * durationS));
  const latencies = new Float64Array(total);
  let sent = 0;
  let completed = 0;
  let timeouts = 0;
  const failures: string[] = [];
  const start = process.hrtime.bigint();
  let lastAnswer = start;

  await new Promise<void>((resolve) => {
    const finish = (): void => {
      if (completed + failures.length === total) resolve();
    };
    const sendOne = (): void => {
      const index = sent;
      sent += 1;
      const next = materialise(template);
      const began = process.hrtime.bigint();
      const req = httpRequest(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: next.method ?? 'GET',
          path: next.path ?? '/',
          headers: { ...(next.headers ?? {}), ...(next.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(next.body)) }) },
        },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => {
            const now = process.hrtime.bigint();
            lastAnswer = now;
            if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) failures.push(`status ${res.statusCode}`);
            else {
              latencies[index] = Number(now - began) / 1000;
              completed += 1;
            }
            finish();
          });
        },
      );
      let timedOut = false;
      req.setTimeout(REQUEST_TIMEOUT_MS, () => {
        timedOut = true;
        req.destroy(new Error('timeout'));
      });
      req.on('error', (error) => {
        if (timedOut) {
          // Over capacity, not broken: the answer is at least this late.
          latencies[index] = REQUEST_TIMEOUT_MS * 1000;
          timeouts += 1;
          completed += 1;
        } else failures.push(error.message);
        finish();
      });
      req.end(next.body);
    };
    const timer = setInterval(() => {
      const elapsedS = Number(process.hrtime.bigint() - start) / 1e9;
      const due = Math.min(total, Math.floor(elapsedS * rate) + 1);
      while (sent < due) sendOne();
      if (sent >= total) clearInterval(timer);
    }, TICK_MS);
  });
  agent.destroy();
  if (failures.length > 0) throw new LoadError(`${label}: ${failures.length} of ${total} requests failed (${[...new Set(failures)].slice(0, 3).join(', ')})`);
  const sorted = latencies.slice(0, total).sort();
  const elapsedS = Number(lastAnswer - start) / 1e9;
  return { targetRate: rate, achievedRate: total / elapsedS, p50Us: percentile(sorted, 50), p99Us: percentile(sorted, 99), completed, timeouts };
}
