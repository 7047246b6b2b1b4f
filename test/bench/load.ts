import autocannon from 'autocannon';

/** What one autocannon run yields for the report. */
export interface Sample {
  /** autocannon's requests.average: the mean of its one-second request counts. */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly completed: number;
  readonly ok: number;
}

export interface LoadSettings {
  readonly connections: number;
  readonly durationS: number;
}

/** A failed scenario: errors, timeouts or non-2xx answers, or nothing measured at all. */
export class LoadError extends Error {}

/** Seconds beyond the run's duration before it is abandoned as hung. */
const HANG_MARGIN_S = 30;
/** Seconds one request may take before autocannon counts it as a timeout. */
const REQUEST_TIMEOUT_S = 10;

function describeStatuses(result: autocannon.Result): string {
  return Object.entries(result.statusCodeStats)
    .map(([status, { count }]) => `${status}×${count}`)
    .join(', ');
}

/** Any sign the numbers are not of the intended, successful requests. */
function problems(result: autocannon.Result): string[] {
  const found: string[] = [];
  if (result.errors > 0) found.push(`${result.errors} errors`);
  if (result.timeouts > 0) found.push(`${result.timeouts} timeouts`);
  if (result.non2xx > 0) found.push(`${result.non2xx} non-2xx answers (${describeStatuses(result)})`);
  if (result.mismatches > 0) found.push(`${result.mismatches} body mismatches`);
  if (result['2xx'] === 0) found.push('no 2xx answer at all');
  // Latency may read 0: autocannon truncates to whole ms, so a sub-millisecond answer is 0.
  if (!(result.requests.average > 0)) found.push('no throughput recorded');
  return found;
}

/** Runs autocannon once against `url` and fails loudly if any request went wrong. */
export async function runLoad(label: string, url: string, request: autocannon.Request, settings: LoadSettings): Promise<Sample> {
  const instance = autocannon({
    url,
    connections: settings.connections,
    pipelining: 1,
    duration: settings.durationS,
    timeout: REQUEST_TIMEOUT_S,
    requests: [request],
  });
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        instance.stop();
        reject(new LoadError(`${label}: autocannon did not finish within ${settings.durationS + HANG_MARGIN_S} s`));
      },
      (settings.durationS + HANG_MARGIN_S) * 1000,
    );
  });
  let result: autocannon.Result;
  try {
    result = await Promise.race([instance, hung]);
  } finally {
    clearTimeout(timer);
  }
  const found = problems(result);
  if (found.length > 0) throw new LoadError(`${label}: ${found.join('; ')}`);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    completed: result.requests.total,
    ok: result['2xx'],
  };
}
