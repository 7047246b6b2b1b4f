import { builtinModules } from 'node:module';
import { createServer } from 'node:http';
import vm from 'node:vm';
import test from 'ava';
import { listeningPort } from '@payments/node-runtime';
import { bundleSdk, EXPECTED_RESULTS, RUNTIME_CHECKS, signedDelivery, type SdkBundle } from './sdk-bundles';

/*
 * The SDK outside Node: package.json `exports` hands each runtime its build, and the worker build,
 * bundled as wrangler would, runs in a vm context holding only what a Worker has (WebCrypto,
 * fetch and its classes, timers, TextEncoder): no process, Buffer or require.
 */

const NODE_ONLY = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/** The globals of a Cloudflare-Worker-like runtime, taken from this process. */
function workerContext(): vm.Context {
  const { crypto, fetch, Request, Response, Headers, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController, AbortSignal, atob, btoa } = globalThis;
  return vm.createContext({
    ...{ crypto, fetch, Request, Response, Headers, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController, AbortSignal, atob, btoa },
    setTimeout,
    clearTimeout,
    console,
  });
}

/** Runs `source` in the context and waits for the promise it makes; the answer is copied out of the context's realm as JSON. */
async function runIn(context: vm.Context, source: string): Promise<unknown> {
  const pending: unknown = vm.runInContext(source, context);
  return JSON.parse(JSON.stringify(await pending)) as unknown;
}

function nodeOnlyImports(bundle: SdkBundle): string[] {
  return bundle.imports.filter((path) => NODE_ONLY.has(path));
}

test('package.json hands Node its node:crypto build and browsers, workers, Deno and unknown runtimes the web build', async (t) => {
  const entryOf = async (platform: 'browser' | 'neutral', conditions: string[]) =>
    (await bundleSdk({ platform, conditions, globalName: 'sdk' })).inputs.filter((input) => /sdk\/esm\/(index|web)\.js$/.test(input));
  t.deepEqual(await entryOf('browser', []), ['sdk/esm/web.js']);
  t.deepEqual(await entryOf('neutral', ['workerd', 'worker']), ['sdk/esm/web.js']);
  t.deepEqual(await entryOf('neutral', ['edge-light']), ['sdk/esm/web.js']);
  t.deepEqual(await entryOf('neutral', ['deno']), ['sdk/esm/web.js']);
  t.deepEqual(await entryOf('neutral', []), ['sdk/esm/web.js']);
  t.regex(require.resolve('@payments/sdk'), /sdk\/dist\/cjs\/index\.js$/);
  t.regex(require.resolve('@payments/sdk/web'), /sdk\/dist\/cjs\/web\.js$/);
});

test('the worker build imports no node: module and, with only WebCrypto and fetch, verifies v1 and v2 by both header schemes', async (t) => {
  const bundle = await bundleSdk({ platform: 'neutral', conditions: ['workerd', 'worker'], globalName: 'PaymentsSDK' });
  t.deepEqual(nodeOnlyImports(bundle), []);
  t.false(/\brequire\(/.test(bundle.code), 'no require() left for the runtime to resolve');
  const delivery = signedDelivery();
  const keyFetches: string[] = [];
  const server = createServer((req, res) => {
    keyFetches.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        has_more: false,
        data: [{ id: delivery.keyId, object: 'webhook_public_key', algorithm: 'ed25519', public_key: delivery.publicKey }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const context = workerContext();
    vm.runInContext(bundle.code, context);
    const baseUrl = `http://127.0.0.1:${listeningPort(server)}`;
    const results = await runIn(context, `(${RUNTIME_CHECKS})(PaymentsSDK, ${JSON.stringify(delivery)}, ${JSON.stringify(baseUrl)})`);
    t.deepEqual(results, { ...EXPECTED_RESULTS, fetchedKeys: 'evt_RUNTIME' });
    t.deepEqual(keyFetches, ['GET /v1/webhook_public_keys Bearer sk_test_runtime']);
    t.is(vm.runInContext('typeof process + typeof Buffer + typeof require', context), 'undefinedundefinedundefined');
  } finally {
    server.close();
  }
});
