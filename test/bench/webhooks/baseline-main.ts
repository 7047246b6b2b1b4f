import { createHmac, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import { renderEventBody } from '@payments/core';
import { CryptoRandomSource } from '@payments/node-runtime';
import { failStart, serveUntilStopped } from '../ipc';
import { API_VERSION, benchEvent } from './events';

/** What the baseline child reports once it has sent everything. */
export interface WebhookBaselineResult {
  /** Date.now() when the first POST started. */
  readonly startedAt: number;
  readonly finishedAt: number;
  /** POSTs that did not get a 2xx (or failed outright). */
  readonly failures: number;
  readonly bodyBytes: number;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

/** The same four signatures the relay puts on an attempt (webhookSignatureHeaders), straight from node:crypto. */
function signedHeaders(eventId: string, body: string, secret: Buffer, platformKey: KeyObject): Record<string, string> {
  const t = String(Math.floor(Date.now() / 1000));
  const ours = `${t}.${body}`;
  const standard = `${eventId}.${t}.${body}`;
  const v1 = createHmac('sha256', secret).update(ours, 'utf8').digest('hex');
  const v2 = sign(null, Buffer.from(ours, 'utf8'), platformKey).toString('base64');
  const standardHmac = createHmac('sha256', secret).update(standard, 'utf8').digest('base64');
  const standardEd = sign(null, Buffer.from(standard, 'utf8'), platformKey).toString('base64');
  return {
    'content-type': 'application/json; charset=utf-8',
    'x-webhook-signature': `t=${t},v1=${v1},v2=${v2},v1_kid=1,v2_kid=pk_baseline`,
    'webhook-id': eventId,
    'webhook-timestamp': t,
    'webhook-signature': `v1,${standardHmac} v1a,${standardEd}`,
    'user-agent': 'payments-webhooks/1',
  };
}

/**
 * One POST as HttpWebhookSender makes it: a new TLS connection (agent: false) to the receiver's
 * address, SNI and Host the endpoint's host name, from the one TLS context the process keeps (the
 * sender keeps one too; a `ca` option instead would build a context, and parse the CA, per POST);
 * resolves with the status (0 on error).
 */
function post(url: URL, address: string, secureContext: SecureContext, headers: Record<string, string>, body: string): Promise<number> {
  const options: https.RequestOptions & { secureContext: SecureContext } = {
    host: address,
    port: Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: 'POST',
    servername: url.hostname,
    secureContext,
    agent: false,
    timeout: 10_000,
    headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
  };
  return new Promise((resolve) => {
    const request = https.request(options, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve(0));
    request.end(body);
  });
}

/**
 * The baseline in a process of its own: renders BENCH_WEBHOOK_COUNT event bodies like the relay's,
 * signs each (HMAC-SHA256 and Ed25519, both messages) and POSTs them to the receiver in groups
 * of BENCH_WEBHOOK_CONCURRENCY sent together, each group awaited before the next (as one relay
 * pass sends its claimed batch). Then reports and waits to be stopped.
 */
async function main(): Promise<void> {
  const url = new URL(required('BENCH_WEBHOOK_URL'));
  const address = required('BENCH_WEBHOOK_ADDRESS');
  const secureContext = createSecureContext({ ca: readFileSync(required('BENCH_WEBHOOK_CA_FILE'), 'utf8') });
  const merchantId = required('BENCH_MERCHANT_ID');
  const count = Number(required('BENCH_WEBHOOK_COUNT'));
  const concurrency = Number(required('BENCH_WEBHOOK_CONCURRENCY'));
  const random = new CryptoRandomSource();
  const secret = randomBytes(32);
  // The relay opens the sealed platform key for every signature; this parses it once.
  const { d } = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  if (d === undefined) throw new Error('An Ed25519 private key exports d.');
  const seed = Buffer.from(d, 'base64url');
  const platformKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });

  let failures = 0;
  let bodyBytes = 0;
  const startedAt = Date.now();
  for (let sent = 0; sent < count; sent += concurrency) {
    const group = Array.from({ length: Math.min(concurrency, count - sent) }, () => {
      const event = benchEvent(random, merchantId, new Date());
      const body = renderEventBody(event, API_VERSION);
      bodyBytes = Buffer.byteLength(body);
      return post(url, address, secureContext, signedHeaders(event.id, body, secret, platformKey), body);
    });
    for (const status of await Promise.all(group)) if (status < 200 || status >= 300) failures += 1;
  }
  const result: WebhookBaselineResult = { startedAt, finishedAt: Date.now(), failures, bodyBytes };
  serveUntilStopped(result, async () => undefined);
}

main().catch(failStart);
