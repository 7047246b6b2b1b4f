import test from 'ava';
import { FakeClock, InMemoryFailureCounter } from '@payments/in-memory';
import { CryptoDigest, ScryptPasswordHasher } from '@payments/node-runtime';
import { AuditRecorder } from '../../src/dashboard/use-cases/audit';
import { SIGN_IN_FAILURE_WINDOW, SignInThrottle } from '../../src/dashboard/use-cases/sign-in-throttle';
import { CoreError } from '../../src/common/core-error';
import type { FailureCounter } from '../../src/dashboard/ports/failure-counter.port';
import type { User, UserRole } from '../../src/dashboard/domain/user.entity';
import type { OneTimeCodes } from '../../src/dashboard/ports/one-time-codes.port';
import type { SecretBox } from '../../src/common/secret-box.port';
import { AuthenticateDashboardSession } from '../../src/dashboard/use-cases/authenticate-dashboard-session.use-case';
import { ClaimMfa } from '../../src/dashboard/use-cases/claim-mfa.use-case';
import { DashboardCredentials } from '../../src/dashboard/use-cases/dashboard-credentials';
import { SignIn } from '../../src/dashboard/use-cases/sign-in.use-case';
import { AddTeamUser, ResetTeamUserMfa, UpdateTeamUser, type TeamChangeDeps } from '../../src/dashboard/use-cases/team.use-cases';
import { StepUp } from '../../src/dashboard/use-cases/step-up';
import { VerifyOneTimeCode } from '../../src/dashboard/use-cases/verify-one-time-code.use-case';
import { harness } from './harness';

/** Codes are `<secret>:<step>`, valid one step either way: enough to test the rules around them. */
const fakeCodes: OneTimeCodes = {
  generateSecret: () => `S${Math.floor(performance.now() * 1000)}`,
  keyUri: (account, issuer, secret) => `otpauth://totp/${issuer}:${account}?secret=${secret}`,
  matchingStep: (secret, code, now) => {
    const step = Math.floor(now.getTime() / 30_000);
    return [step - 1, step, step + 1].find((candidate) => code === `${secret}:${candidate}`);
  },
};
const box: SecretBox = { seal: (plain) => `sealed(${plain})`, open: (sealed) => sealed.slice(7, -1) };
const PASSWORD = 'a long enough password';

function dashboard() {
  const h = harness();
  const clock: FakeClock = h.clock;
  const passwords = new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 });
  const audit = new AuditRecorder({ log: h.storage.audit, clock, random: h.random });
  const throttle = new SignInThrottle({ counter: new InMemoryFailureCounter(), clock, digest: new CryptoDigest() });
  const credentials = new DashboardCredentials({ users: h.storage.users, passwords, random: h.random, throttle });
  const verify = new VerifyOneTimeCode({ uow: h.storage.uow, users: h.storage.users, codes: fakeCodes, secrets: box, clock });
  const signIn = new SignIn({
    uow: h.storage.uow,
    credentials,
    verifyCode: verify,
    sessions: h.storage.dashboardSessions,
    audit,
    clock,
    random: h.random,
    digest: h.digest,
  });
  const claim = new ClaimMfa({ uow: h.storage.uow, credentials, users: h.storage.users, codes: fakeCodes, secrets: box, audit });
  const authenticate = new AuthenticateDashboardSession({
    sessions: h.storage.dashboardSessions,
    users: h.storage.users,
    merchants: h.storage.merchants,
    digest: h.digest,
    clock,
  });
  const stepUp = new StepUp({ verifyCode: verify, failures: new InMemoryFailureCounter(), clock });
  const s = h.storage;
  const team: TeamChangeDeps = { uow: s.uow, users: s.users, merchants: s.merchants, notices: s.notices, stepUp, audit, clock, random: h.random };
  const add = new AddTeamUser({ ...team, passwords });
  const update = new UpdateTeamUser({ ...team, sessions: s.dashboardSessions });
  const reset = new ResetTeamUserMfa({ ...team, sessions: s.dashboardSessions });
  const code = (secret: string): string => `${secret}:${Math.floor(clock.now().getTime() / 30_000)}`;
  /** The code of the next step (the clock moves on), so the used-code rule never refuses a test's good code. */
  const freshCode = (secret: string): string => {
    clock.advance(30_000);
    return code(secret);
  };
  /** A new merchant's owner with a second factor, for the step-up actions. */
  const owner = async (): Promise<{ user: User; secret: string }> => {
    const { owner: created } = await h.newMerchant();
    const secret = `OWNER${Math.random().toString(36).slice(2)}`;
    const user: User = { ...created, mfaSecret: box.seal(secret) };
    await s.users.update(user);
    return { user, secret };
  };
  /** A member of `role` with a claimed second factor, signed in once. */
  const member = async (by: { user: User; secret: string }, role: UserRole) => {
    const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
    const user = await add.execute(by.user, { email, password: PASSWORD, role, code: freshCode(by.secret) });
    const { secret } = await claim.execute({ email, password: PASSWORD, ip: '192.0.2.1' });
    const signedIn = await signIn.execute({ email, password: PASSWORD, code: code(secret), ip: '192.0.2.1' });
    clock.advance(30_000);
    return { user, secret, email, token: signedIn.token };
  };
  return { h, clock, signIn, claim, authenticate, add, update, reset, code, freshCode, owner, member };
}

test('sign-in stores only the digest of a 32-byte token and authenticates it until 30 minutes after', async (t) => {
  const d = dashboard();
  const { token, user } = await d.member(await d.owner(), 'developer');
  t.regex(token, /^[A-Za-z0-9_-]{43}$/);
  t.false(JSON.stringify(d.h.storage.store.tables.dashboardSessions).includes(token));
  t.is((await d.authenticate.execute(token)).user.id, user.id);
  d.clock.advance(30 * 60_000 - 30_000 - 1);
  t.is((await d.authenticate.execute(token)).user.id, user.id);
  d.clock.advance(1);
  t.like(await t.throwsAsync(d.authenticate.execute(token)), { code: 'authentication_required' });
});

test('every refusal is invalid_credentials, and ten of them throttle the email before the password is checked', async (t) => {
  const d = dashboard();
  const { email, secret } = await d.member(await d.owner(), 'viewer');
  for (let i = 0; i < 10; i += 1) {
    const error = await t.throwsAsync(d.signIn.execute({ email, password: PASSWORD, code: 'wrong', ip: `198.51.100.${i}` }));
    t.like(error, { code: 'invalid_credentials', category: 'authentication' });
  }
  const limited = await t.throwsAsync(d.signIn.execute({ email, password: PASSWORD, code: d.code(secret), ip: '203.0.113.1' }));
  t.like(limited, { code: 'rate_limited', retryAfterSeconds: 900 });
});

test('the team rules: owner grants, no self edit, disabling and resets end sessions', async (t) => {
  const d = dashboard();
  const enrolled = await d.owner();
  const owner = enrolled.user;
  const admin = await d.member(enrolled, 'admin');
  const dev = await d.member(enrolled, 'developer');
  t.like(await t.throwsAsync(d.add.execute(admin.user, { email: 'x@example.com', password: PASSWORD, role: 'owner' })), { code: 'forbidden' });
  t.like(await t.throwsAsync(d.update.execute(admin.user, owner.id, { status: 'disabled' })), { code: 'forbidden' });
  t.like(await t.throwsAsync(d.update.execute(admin.user, admin.user.id, { role: 'viewer' })), { code: 'forbidden' });
  t.like(await t.throwsAsync(d.reset.execute(owner, owner.id, d.freshCode(enrolled.secret))), { code: 'forbidden' });
  t.like(await t.throwsAsync(d.update.execute(owner, 'usr_unknown', { role: 'viewer' })), { code: 'resource_not_found' });

  const reset = await d.reset.execute(admin.user, dev.user.id, d.freshCode(admin.secret));
  t.is(reset.mfaSecret, undefined);
  t.like(await t.throwsAsync(d.authenticate.execute(dev.token)), { code: 'authentication_required' });
  t.like(await t.throwsAsync(d.signIn.execute({ email: dev.email, password: PASSWORD, code: d.code(dev.secret), ip: '192.0.2.9' })), {
    code: 'invalid_credentials',
  });

  t.is((await d.authenticate.execute(admin.token)).user.id, admin.user.id);
  await d.update.execute(owner, admin.user.id, { status: 'disabled' });
  const sessions = [...d.h.storage.store.tables.dashboardSessions.values()].filter((session) => session.userId === admin.user.id);
  t.true(sessions.length > 0 && sessions.every((session) => session.ended !== undefined));
});

test('an attempt the shared counter could not fully reserve counts nothing: the slot it did take is given back', async (t) => {
  const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
  const inner = new InMemoryFailureCounter();
  // The store answers for the email's key and fails for the address's (a connection lost half way).
  const flaky: FailureCounter = {
    check: (key, now, window) => inner.check(key, now, window),
    record: (key, now, window) => inner.record(key, now, window),
    reserve: async (key, now, window) => {
      if (key.startsWith('sign_in:ip:')) throw new CoreError('api_error', 'unavailable', 'Redis is away.');
      return inner.reserve(key, now, window);
    },
    release: (key, slot) => inner.release(key, slot),
    clear: (key) => inner.clear(key),
  };
  const throttle = new SignInThrottle({ counter: flaky, clock, digest: new CryptoDigest() });
  await t.throwsAsync(throttle.begin('someone@example.com', '192.0.2.1'), { instanceOf: CoreError, message: 'Redis is away.' });
  const emailKey = `sign_in:email:${new CryptoDigest().sha256Hex('someone@example.com')}`;
  t.deepEqual(await inner.check(emailKey, clock.now(), SIGN_IN_FAILURE_WINDOW), { failures: 0, blockedForMs: 0 });
});
