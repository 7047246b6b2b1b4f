import { createServer, type Server } from 'node:http';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { listeningPort } from '@payments/node-runtime';
import { bundleSdk, EXPECTED_RESULTS, RUNTIME_CHECKS, signedDelivery, type SdkBundle } from '../e2e/sdk-bundles';
import { launchChromium } from './checkout-browser';

/*
 * The SDK's browser build, bundled as a web app's bundler would, verifying webhook deliveries in
 * Chromium with WebCrypto: v1 (HMAC) and v2 (Ed25519), by either header scheme, and the platform
 * keys fetched from the page's own origin (an http://127.0.0.1 page is a secure context, so
 * crypto.subtle is there).
 */

const delivery = signedDelivery();
let browser: Browser;
let server: Server;
let bundle: SdkBundle;
const keyFetches: string[] = [];

test.before(async () => {
  bundle = await bundleSdk({ platform: 'browser', conditions: [], globalName: 'PaymentsSDK' });
  browser = await launchChromium();
  server = createServer((req, res) => {
    if (req.url === '/sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return void res.end(bundle.code);
    }
    if (req.url === '/v1/webhook_public_keys') {
      keyFetches.push(String(req.headers.authorization));
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_browser' });
      const key = { id: delivery.keyId, object: 'webhook_public_key', algorithm: 'ed25519', public_key: delivery.publicKey };
      return void res.end(JSON.stringify({ object: 'list', has_more: false, data: [key] }));
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html lang="en"><head><title>SDK</title><script src="/sdk.js"></script></head><body></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

test.after.always(async () => {
  await browser?.close();
  server?.close();
});

test('the browser build imports no node: module', (t) => {
  t.deepEqual(
    bundle.imports.filter((path) => path.startsWith('node:')),
    [],
  );
  t.true(bundle.inputs.includes('sdk/esm/web.js'));
});

test('in Chromium the browser build verifies v1 and v2 by both header schemes, fetches the platform keys, and refuses a tampered body', async (t) => {
  const page = await browser.newPage();
  try {
    const origin = `http://127.0.0.1:${listeningPort(server)}`;
    await page.goto(`${origin}/`);
    const results: unknown = await page.evaluate(`(${RUNTIME_CHECKS})(globalThis.PaymentsSDK, ${JSON.stringify(delivery)}, ${JSON.stringify(origin)})`);
    t.deepEqual(results, { ...EXPECTED_RESULTS, fetchedKeys: 'evt_RUNTIME' });
    t.deepEqual(keyFetches, ['Bearer sk_test_runtime']);
  } finally {
    await page.close();
  }
});
