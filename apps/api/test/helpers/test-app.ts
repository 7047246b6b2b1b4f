import { randomBytes } from 'node:crypto';
import test from 'ava';
import type { Server, ServerInjectResponse } from '@hapi/hapi';
import {
  CreateMerchant,
  IssueApiKey,
  SetLiveMode,
  type PayoutGateway,
  type Clock,
  type PasswordHasher,
  type PaymentChannel,
  type WebhookSender,
} from '@payments/core';
import { freePort, ScryptPasswordHasher } from '@payments/node-runtime';
import { createTestDatabase } from '@payments/storage-sql';
import { buildContainer, type AppContainer } from '../../src/container';
import { loadConfig } from '../../src/config';
import { createServer } from '../../src/server';
import type { Logger } from '../../src/logger';
import type { Tracing } from '../../src/tracing/tracing';
import { recordErrorAnswers } from '../openapi/error-codes';

export interface TestMerchant {
  readonly id: string;
  readonly testKey: string;
  /** Mints a live key after opening live mode for the merchant (the review). */
  liveKey(): Promise<string>;
}

/** An answer as tests read it: `result` is the parsed JSON of a JSON answer, of no known shape. */
export type TestResponse = ServerInjectResponse<unknown>;

export interface TestApp {
  readonly server: Server;
  readonly app: AppContainer;
  /** A fresh merchant with a test key. */
  merchant(): Promise<TestMerchant>;
  /** Sends a request the way a merchant's client would. */
  request(options: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  readonly method: string;
  readonly url: string;
  readonly key?: string;
  readonly idempotencyKey?: string;
  /** Sent as `server.inject` would send it: text as it is, any other JSON value as JSON. */
  readonly payload?: unknown;
  readonly headers?: Record<string, string>;
  /** The client's address as the server sees it (default 127.0.0.1); sign-in throttling counts per IP. */
  readonly remoteAddress?: string;
}

/**
 * What `server.inject` makes of a payload, made here so that any JSON value can be sent: text as
 * it is, anything else as its JSON with that content type, nothing at all for a falsy value.
 */
function encodedPayload(payload: unknown): { text?: string; headers: Record<string, string> } {
  if (!payload) return { headers: {} };
  if (typeof payload === 'string') return { text: payload, headers: {} };
  return { text: JSON.stringify(payload), headers: { 'content-type': 'application/json' } };
}

/** Cheap scrypt for tests: the parameters are stored with each hash, so verification still works. */
const TEST_PASSWORD_HASHER = new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 });

/**
 * The whole app on a database of its own: SQLite by default, MariaDB when
 * PAYMENTS_TEST_DATABASE_URL is set, Redis locks and rate limits when PAYMENTS_TEST_REDIS_URL is.
 */
export async function startTestApp(
  options: {
    clock?: Clock;
    env?: Record<string, string>;
    databaseUrl?: (url: string) => string;
    channels?: PaymentChannel[];
    passwordHasher?: PasswordHasher;
    webhookSender?: WebhookSender;
    logger?: Logger;
    payoutGateway?: PayoutGateway;
    tracing?: Tracing;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  // Channels call back over real HTTP, so the app listens on a port of its own.
  const port = await freePort();
  const config = loadConfig({
    PAYMENTS_HOST: '127.0.0.1',
    PAYMENTS_PORT: String(port),
    PAYMENTS_CHANNEL_CALLBACK_URL: `http://127.0.0.1:${port}`,
    // A test may route the service through something of its own (a TCP forwarder it can cut).
    PAYMENTS_DATABASE_URL: options.databaseUrl ? options.databaseUrl(database.url) : database.url,
    ...(process.env.PAYMENTS_TEST_REDIS_URL ? { PAYMENTS_REDIS_URL: process.env.PAYMENTS_TEST_REDIS_URL } : {}),
    PAYMENTS_REDIS_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
    PAYMENTS_MASTER_KEY: randomBytes(32).toString('hex'),
    PAYMENTS_BASE_URL: 'https://pay.example.test',
    PAYMENTS_RATE_LIMIT_TEST: '0',
    PAYMENTS_RATE_LIMIT_LIVE: '0',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const app = await buildContainer(config, {
    passwordHasher: options.passwordHasher ?? TEST_PASSWORD_HASHER,
    clock: options.clock,
    channels: options.channels,
    ...(options.webhookSender ? { webhookSender: options.webhookSender } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.payoutGateway ? { payoutGateway: options.payoutGateway } : {}),
    ...(options.tracing ? { tracing: options.tracing } : {}),
  });
  const server = await createServer(app);
  // Every suite holds the error codes it meets to the ones the document lists for each operation.
  const errorAnswers = recordErrorAnswers(server);
  await server.start();

  const merchant = async (): Promise<TestMerchant> => {
    const suffix = randomBytes(6).toString('hex');
    const created = await app.get(CreateMerchant).execute({ name: `Shop ${suffix}`, email: `owner-${suffix}@example.com`, password: 'correct horse battery' });
    const id = created.merchant.id;
    return {
      id,
      testKey: created.testApiKey.secret,
      liveKey: async () => {
        await app.get(SetLiveMode).execute({ merchantId: id, enabled: true });
        return (await app.get(IssueApiKey).execute({ merchantId: id, mode: 'live' })).secret;
      },
    };
  };

  const request = async (req: RequestOptions): Promise<TestResponse> => {
    const body = encodedPayload(req.payload);
    const res = await server.inject<unknown>({
      method: req.method,
      url: req.url,
      headers: {
        ...body.headers,
        ...(req.key ? { authorization: `Bearer ${req.key}` } : {}),
        ...(req.idempotencyKey ? { 'idempotency-key': req.idempotencyKey } : {}),
        ...req.headers,
      },
      ...(body.text === undefined ? {} : { payload: body.text }),
      ...(req.remoteAddress === undefined ? {} : { remoteAddress: req.remoteAddress }),
    });
    // Idempotent routes answer with the stored JSON text; tests read every answer as parsed JSON.
    if (String(res.headers['content-type']).startsWith('application/json')) res.result = JSON.parse(res.payload) as unknown;
    return res;
  };

  return {
    server,
    app,
    merchant,
    request,
    close: async () => {
      await server.stop();
      await app.close();
      await database.destroy();
      errorAnswers.check();
    },
  };
}

/**
 * The app (started with `options`) and a merchant of it for one test file: handed to `use` before
 * the file's tests, closed after them.
 */
export function withAppAndMerchant(options: Parameters<typeof startTestApp>[0], use: (started: { t0: TestApp; shop: TestMerchant }) => unknown): void {
  let t0: TestApp | undefined;
  test.before(async () => {
    t0 = await startTestApp(options);
    await use({ t0, shop: await t0.merchant() });
  });
  test.after.always(async () => t0?.close());
}

let counter = 0;
/** A unique Idempotency-Key / order id per call within a test run. */
export function unique(prefix = 'k'): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}-${randomBytes(3).toString('hex')}`;
}

export function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { amount: 10000, currency: 'THB', merchant_order_id: unique('order'), ...overrides };
}
