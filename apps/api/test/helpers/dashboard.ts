import { randomBytes } from 'node:crypto';
import { Clock, newId, PasswordHasher, RandomSource, UserRepository, type UserRole } from '@payments/core';
import { OtplibOneTimeCodes } from '@payments/otp';
import { objectAt, textAt, type JsonObject } from './json';
import type { TestApp } from './test-app';

const codes = new OtplibOneTimeCodes();

/** A dashboard user signed in through the real routes, and what it takes to sign in again. */
export interface SignedInUser {
  /** The `Cookie` header value to send: `dashboard_session=<token>`. */
  readonly cookie: string;
  readonly userId: string;
  readonly email: string;
  readonly password: string;
  /** The base32 TOTP secret the MFA claim returned. */
  readonly totpSecret: string;
  /** The Set-Cookie header of the sign-in answer, attributes included. */
  readonly setCookie: string;
}

export interface SignInOptions {
  readonly merchantId: string;
  readonly role: UserRole;
  readonly name?: string;
}

/** The one-time code an authenticator app shows at the app's clock (a FakeClock when the test injected one), `steps` 30-second steps later. */
export function totpCode(t0: TestApp, secret: string, steps = 0): string {
  const now = t0.app.get<Clock>(Clock).now();
  return codes.codeAt(secret, new Date(now.getTime() + steps * 30_000));
}

/**
 * A step-up code for `user`: the test's FakeClock moves to the next 30-second step first, so no
 * code is refused as already used. Sessions last 30 minutes, far more than a test's steps.
 */
export function freshCode(t0: TestApp, clock: { advance(ms: number): void }, user: { totpSecret: string }): string {
  clock.advance(30_000);
  return totpCode(t0, user.totpSecret);
}

/** `dashboard_session=<token>` out of a Set-Cookie answer, ready for a `Cookie` header. */
export function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((value) => value.startsWith('dashboard_session='));
  if (!header) throw new Error(`no dashboard_session cookie in ${JSON.stringify(setCookie)}`);
  return header.split(';')[0];
}

/**
 * A new user of `role` for the merchant (owner included: a second owner, so CreateMerchant's
 * stays untouched), enrolled through `POST /dashboard/v1/mfa` and signed in through
 * `POST /dashboard/v1/session` with a real TOTP code of the app's clock. Each user signs in once,
 * so the used-code rule never bites; to sign the same user in again use `signInAgain` (it takes
 * the next step's code, which one step of drift allows).
 */
export async function signIn(t0: TestApp, options: SignInOptions): Promise<SignedInUser> {
  const email = `${options.role}-${randomBytes(6).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const userId = newId(t0.app.get<RandomSource>(RandomSource), 'user');
  await t0.app.get<UserRepository>(UserRepository).insert({
    id: userId,
    merchantId: options.merchantId,
    email,
    ...(options.name === undefined ? {} : { name: options.name }),
    role: options.role,
    status: 'active',
    passwordHash: await t0.app.get<PasswordHasher>(PasswordHasher).hash(password),
    created: t0.app.get<Clock>(Clock).now(),
  });
  const totpSecret = await claimMfa(t0, email, password);
  const setCookie = await signInForSetCookie(t0, { email, password, code: totpCode(t0, totpSecret) });
  return { cookie: sessionCookieOf(setCookie), userId, email, password, totpSecret, setCookie };
}

let helperAddress = 0;
/**
 * A client address of its own for each helper sign-in or claim. A check in progress holds a slot
 * of its IP's sign-in throttle, so tests signing users in side by side from one address would
 * throttle each other; the throttle tests pick their addresses themselves.
 */
function nextHelperAddress(): string {
  helperAddress += 1;
  return `198.18.${(helperAddress >> 8) & 255}.${helperAddress & 255}`;
}

/** `POST /dashboard/v1/mfa`; returns the secret, failing loudly on anything but 200. */
export async function claimMfa(t0: TestApp, email: string, password: string): Promise<string> {
  const res = await t0.request({ method: 'POST', url: '/dashboard/v1/mfa', payload: { email, password }, remoteAddress: nextHelperAddress() });
  if (res.statusCode !== 200) throw new Error(`MFA claim answered ${res.statusCode}: ${res.payload}`);
  return textAt(res.result, 'secret');
}

/** `POST /dashboard/v1/session`; returns the cookie, failing loudly on anything but 200. */
export async function signInWith(t0: TestApp, body: { email: string; password: string; code: string }): Promise<string> {
  return sessionCookieOf(await signInForSetCookie(t0, body));
}

async function signInForSetCookie(t0: TestApp, body: { email: string; password: string; code: string }): Promise<string> {
  const res = await t0.request({ method: 'POST', url: '/dashboard/v1/session', payload: body, remoteAddress: nextHelperAddress() });
  if (res.statusCode !== 200) throw new Error(`sign-in answered ${res.statusCode}: ${res.payload}`);
  const header = [res.headers['set-cookie'] ?? []].flat().find((value) => value.startsWith('dashboard_session='));
  if (!header) throw new Error(`no dashboard_session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return header;
}

/**
 * Signs `user` in again with the code of the step after the one `signIn` used (valid now with
 * one step of drift). Works once per 30 seconds of the app's clock; with a FakeClock advance it.
 */
export function signInAgain(t0: TestApp, user: SignedInUser, steps = 1): Promise<string> {
  return signInWith(t0, { email: user.email, password: user.password, code: totpCode(t0, user.totpSecret, steps) });
}

/** The `error` object of an error answer. */
export function errorOf(res: { result: unknown }): JsonObject {
  return objectAt(res.result, 'error');
}

/** A request with the session cookie (and nothing else) as the credential. */
export function asUser(t0: TestApp, user: { cookie: string }, req: { method: string; url: string; payload?: unknown; headers?: Record<string, string> }) {
  return t0.request({ ...req, headers: { cookie: user.cookie, ...req.headers } });
}
