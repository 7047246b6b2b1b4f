import { randomBytes } from 'node:crypto';
import test from 'ava';
import { FakeClock } from '@payments/in-memory';
import type { PasswordHasher } from '@payments/core';
import { ScryptPasswordHasher } from '@payments/node-runtime';
import { signIn, totpCode, type SignedInUser } from './helpers/dashboard';
import { ConfigError, loadConfig } from '../src/config';
import { startTestApp, withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
let t0: TestApp;
let shop: TestMerchant;
withAppAndMerchant({ clock }, (started) => ({ t0, shop } = started));

const FIFTEEN_MINUTES = 15 * 60_000;
let ipCounter = 0;
const freshIp = (): string => `203.0.113.${(ipCounter += 1)}`;
const unknownEmail = (): string => `nobody-${randomBytes(6).toString('hex')}@example.com`;

function attempt(app: TestApp, payload: Record<string, unknown>, remoteAddress: string, url = '/dashboard/v1/session') {
  return app.request({ method: 'POST', url, payload, remoteAddress });
}

/** A right sign-in of `member` now: the current step's code, each step used once (the tests advance the clock between). */
const rightSignIn = (member: SignedInUser, ip: string) =>
  attempt(t0, { email: member.email, password: member.password, code: totpCode(t0, member.totpSecret) }, ip);
const wrongPassword = (email: string, ip: string) => attempt(t0, { email, password: 'not the password at all', code: '000000' }, ip);

/** A member whose signIn step is behind the clock, so the current code is theirs to use. */
async function member(): Promise<SignedInUser> {
  const user = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  clock.advance(30_000);
  return user;
}

test.serial('ten failures for one email, from anywhere, and the eleventh try is 429 with Retry-After, even with the right password', async (t) => {
  const user = await member();
  for (let i = 0; i < 10; i += 1) t.is((await wrongPassword(user.email, freshIp())).statusCode, 401, `failure ${i + 1}`);
  const limited = await rightSignIn(user, freshIp());
  t.is(limited.statusCode, 429);
  t.like(limited.result, { error: { code: 'rate_limited' } });
  t.is(limited.headers['retry-after'], '900');
  t.is(limited.headers['set-cookie'], undefined);
  // The MFA claim checks the same password, so it is throttled with it.
  const claim = await attempt(t0, { email: user.email, password: user.password }, freshIp(), '/dashboard/v1/mfa');
  t.is(claim.statusCode, 429);

  // Hammering while blocked counts nothing: 15 minutes after the failures it opens again.
  clock.advance(FIFTEEN_MINUTES - 60_000);
  for (let i = 0; i < 5; i += 1) t.is((await wrongPassword(user.email, freshIp())).statusCode, 429);
  t.is((await rightSignIn(user, freshIp())).statusCode, 429);
  clock.advance(60_000);
  t.is((await rightSignIn(user, freshIp())).statusCode, 200);
});

test.serial('ten failures from one IP, on any emails, block that IP for everyone; other IPs go on', async (t) => {
  const user = await member();
  const ip = freshIp();
  for (let i = 0; i < 10; i += 1) t.is((await wrongPassword(unknownEmail(), ip)).statusCode, 401);
  const limited = await rightSignIn(user, ip);
  t.is(limited.statusCode, 429);
  t.like(limited.result, { error: { code: 'rate_limited' } });
  t.true(Number(limited.headers['retry-after']) > 0);
  t.is((await rightSignIn(user, freshIp())).statusCode, 200);
});

test.serial('a success forgets the email failures but not the IP ones', async (t) => {
  const ip = freshIp();
  const user = await member();
  for (let i = 0; i < 9; i += 1) t.is((await wrongPassword(user.email, ip)).statusCode, 401);
  t.is((await rightSignIn(user, ip)).statusCode, 200);
  // The IP has nine failures still: one more and it is blocked.
  t.is((await wrongPassword(unknownEmail(), ip)).statusCode, 401);
  t.is((await wrongPassword(unknownEmail(), ip)).statusCode, 429);
  // The email starts again from nothing: nine more failures elsewhere still leave it open.
  clock.advance(30_000);
  for (let i = 0; i < 9; i += 1) t.is((await wrongPassword(user.email, freshIp())).statusCode, 401);
  t.is((await rightSignIn(user, freshIp())).statusCode, 200);
});

test.serial('wrong codes, reused codes and claims of an enrolled user count as failures too', async (t) => {
  const user = await member();
  for (let i = 0; i < 5; i += 1) t.is((await attempt(t0, { email: user.email, password: user.password, code: '000000' }, freshIp())).statusCode, 401);
  for (let i = 0; i < 5; i += 1) t.is((await attempt(t0, { email: user.email, password: user.password }, freshIp(), '/dashboard/v1/mfa')).statusCode, 401);
  t.is((await rightSignIn(user, freshIp())).statusCode, 429);
});

test.serial('the email is throttled whatever case it is typed in', async (t) => {
  const user = await member();
  for (let i = 0; i < 10; i += 1) await wrongPassword(i % 2 === 0 ? user.email.toUpperCase() : ` ${user.email}`, freshIp());
  t.is((await rightSignIn(user, freshIp())).statusCode, 429);
});

test.serial('without trusted proxies X-Forwarded-For is ignored: a client cannot pick its own address', async (t) => {
  const ip = freshIp();
  for (let i = 0; i < 10; i += 1) {
    const res = await t0.request({
      method: 'POST',
      url: '/dashboard/v1/session',
      payload: { email: unknownEmail(), password: 'wrong password!', code: '000000' },
      remoteAddress: ip,
      headers: { 'x-forwarded-for': `192.0.2.${i}` },
    });
    t.is(res.statusCode, 401);
  }
  const res = await t0.request({
    method: 'POST',
    url: '/dashboard/v1/session',
    payload: { email: unknownEmail(), password: 'x', code: '0' },
    remoteAddress: ip,
    headers: { 'x-forwarded-for': '192.0.2.200' },
  });
  t.is(res.statusCode, 429);
});

test('behind a trusted proxy the client is the last untrusted X-Forwarded-For hop', async (t) => {
  const proxied = await startTestApp({ env: { PAYMENTS_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' } });
  t.teardown(() => proxied.close());
  const send = (forwardedFor: string) =>
    proxied.request({
      method: 'POST',
      url: '/dashboard/v1/session',
      payload: { email: unknownEmail(), password: 'wrong password!', code: '000000' },
      headers: { 'x-forwarded-for': forwardedFor },
    });
  // The left-most value is whatever the client sent; the proxies (10.x) appended the rest.
  for (let i = 0; i < 10; i += 1) t.is((await send(`6.6.6.${i}, 198.51.100.7, 10.1.2.3`)).statusCode, 401);
  t.is((await send('1.2.3.4, 198.51.100.7, 10.9.9.9')).statusCode, 429, 'the same client, whatever it put first');
  t.is((await send('198.51.100.8, 10.1.2.3')).statusCode, 401, 'another client behind the same proxies');
});

test('PAYMENTS_TRUSTED_PROXIES takes IPs and CIDR ranges only', (t) => {
  for (const value of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/2', '::1/129']) {
    t.throws(() => loadConfig({ PAYMENTS_TRUSTED_PROXIES: value, PAYMENTS_MASTER_KEY: 'ab'.repeat(32) }), { instanceOf: ConfigError }, value);
  }
  t.deepEqual(loadConfig({ PAYMENTS_TRUSTED_PROXIES: ' 10.0.0.0/8, ::1 ,192.0.2.1', PAYMENTS_MASTER_KEY: 'ab'.repeat(32) }).trustedProxies, [
    '10.0.0.0/8',
    '::1',
    '192.0.2.1',
  ]);
});

if (process.env.PAYMENTS_TEST_REDIS_URL) {
  test('with Redis, failures counted by one API process block the email in another', async (t) => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const [a, b] = await Promise.all([startTestApp({ env: { PAYMENTS_REDIS_PREFIX: prefix } }), startTestApp({ env: { PAYMENTS_REDIS_PREFIX: prefix } })]);
    t.teardown(async () => {
      await a.close();
      await b.close();
    });
    const email = unknownEmail();
    for (let i = 0; i < 10; i += 1)
      t.is((await attempt(i % 2 === 0 ? a : b, { email, password: 'wrong password!', code: '000000' }, freshIp())).statusCode, 401);
    for (const app of [a, b]) t.is((await attempt(app, { email, password: 'wrong password!', code: '000000' }, freshIp())).statusCode, 429);
  });
}

/** Counts password checks, and makes each take a while, so parallel requests overlap inside them. */
class SlowCountingHasher implements PasswordHasher {
  checks = 0;
  private readonly inner = new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 });

  hash(password: string): Promise<string> {
    return this.inner.hash(password);
  }

  async verify(password: string, stored: string): Promise<boolean> {
    this.checks += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
    return this.inner.verify(password, stored);
  }
}

// With Redis configured (PAYMENTS_TEST_REDIS_URL) the app counts in Redis, otherwise in process: run it both ways.
test('a burst of parallel wrong sign-ins and MFA claims gets no more password checks than the limit, per email and per IP', async (t) => {
  const hasher = new SlowCountingHasher();
  const app = await startTestApp({ passwordHasher: hasher });
  t.teardown(() => app.close());
  const user = await signIn(app, { merchantId: (await app.merchant()).id, role: 'viewer' });
  const statuses = (answers: { statusCode: number }[]): Record<number, number> =>
    answers.reduce<Record<number, number>>((counts, res) => ({ ...counts, [res.statusCode]: (counts[res.statusCode] ?? 0) + 1 }), {});

  // One email from 30 addresses at once, over both routes that check a password.
  hasher.checks = 0;
  const byEmail = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? attempt(app, { email: user.email, password: 'wrong password!' }, `198.51.100.${i}`, '/dashboard/v1/mfa')
        : attempt(app, { email: user.email, password: 'wrong password!', code: '000000' }, `198.51.100.${i}`),
    ),
  );
  t.is(hasher.checks, 10);
  t.deepEqual(statuses(byEmail), { 401: 10, 429: 20 });

  // One address trying 30 emails at once.
  hasher.checks = 0;
  const ip = freshIp();
  const byIp = await Promise.all(Array.from({ length: 30 }, () => attempt(app, { email: unknownEmail(), password: 'wrong password!', code: '000000' }, ip)));
  t.is(hasher.checks, 10);
  t.deepEqual(statuses(byIp), { 401: 10, 429: 20 });
});

test('an unknown email takes about as long as a wrong password (both pay a real scrypt)', async (t) => {
  // Real-cost scrypt, so a missing hash check would show as a difference of tens of milliseconds.
  const slow = await startTestApp({ passwordHasher: new ScryptPasswordHasher({ N: 2 ** 14, r: 8, p: 1 }) });
  t.teardown(() => slow.close());
  const other = await slow.merchant();
  const users = [await signIn(slow, { merchantId: other.id, role: 'viewer' }), await signIn(slow, { merchantId: other.id, role: 'viewer' })];
  const timings = { unknown: [] as number[], wrong: [] as number[] };
  for (let i = 0; i < 16; i += 1) {
    // Interleaved, so drift in the machine's load hits both sides alike; under ten per email and per IP.
    for (const kind of i % 2 === 0 ? (['unknown', 'wrong'] as const) : (['wrong', 'unknown'] as const)) {
      const email = kind === 'unknown' ? unknownEmail() : users[i % 2].email;
      const started = performance.now();
      const res = await attempt(slow, { email, password: 'a wrong password', code: '000000' }, `192.0.2.${i * 2 + (kind === 'unknown' ? 0 : 1)}`);
      timings[kind].push(performance.now() - started);
      t.is(res.statusCode, 401);
    }
  }
  const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const ratio = median(timings.unknown) / median(timings.wrong);
  t.log(`median unknown ${median(timings.unknown).toFixed(1)} ms, wrong password ${median(timings.wrong).toFixed(1)} ms`);
  t.true(ratio > 0.5 && ratio < 2, `ratio ${ratio.toFixed(2)}`);
});
