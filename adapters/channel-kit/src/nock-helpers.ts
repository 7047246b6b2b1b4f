import nock from 'nock';

let stray: string[] = [];
let listening = false;

/**
 * Nock for channel tests: no request leaves the process except to loopback (the service's own
 * callback route), every test starts with no arranged answer left over, and a request no arranged
 * answer matched is remembered for `assertNoStrayRequests`.
 */
export function isolateNetwork(): void {
  nock.cleanAll();
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
  stray = [];
  if (!listening) {
    listening = true;
    nock.emitter.on('no match', (request: { method?: string; path?: string; options?: { method?: string; path?: string } }) => {
      stray.push(`${request.method ?? request.options?.method ?? '?'} ${request.path ?? request.options?.path ?? '?'}`);
    });
  }
}

/** Fails when a one-shot arranged answer (not `persist()`ed) was never asked for. */
export function assertArrangedDone(): void {
  if (!nock.isDone()) throw new Error(`Arranged provider answers never asked for: ${nock.pendingMocks().join(', ')}`);
}

/** Fails when the adapter made a request no arranged answer matched (a call the provider shape does not have). */
export function assertNoStrayRequests(): void {
  if (stray.length > 0) throw new Error(`Requests no arranged answer matched: ${stray.join(', ')}`);
}

/** Every call to `origin` fails with HTTP 500 (retries included) until the next `isolateNetwork`. */
export function providerDown(origin: string): void {
  nock.cleanAll();
  nock(origin)
    .persist()
    .get(/.*/)
    .reply(500, { error: { type: 'api_error' } })
    .post(/.*/)
    .reply(500, { error: { type: 'api_error' } });
}
