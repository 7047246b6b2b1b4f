/**
 * One round of the Node.js lines bench, in the Node.js that runs this file: what the service leans
 * on and a newer line may change. Prints one JSON object (NodeLineRound) on stdout.
 *
 *   node test/dist/bench/node-lines.js <port of an HTTP server that answers "ok">
 *
 * node-lines-main.ts runs it under each line in turn, against one server it keeps for the whole
 * run, so only the client side differs between lines.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { generateKeyPairSync, sign, verify, webcrypto } from 'node:crypto';
import { Agent, request } from 'node:http';

export interface NodeLineRound {
  readonly node: string;
  /** Nanoseconds per awaited call of a three-deep async chain, without any AsyncLocalStorage. */
  readonly awaitNsPlain: number;
  /** The same inside `als.run()` (the unit of work's transaction context does this). */
  readonly awaitNsInAls: number;
  readonly fetchSequentialPerS: number;
  readonly httpSequentialPerS: number;
  readonly fetchConcurrent32PerS: number;
  readonly httpConcurrent32PerS: number;
  /** Ed25519 over a 512-byte message: WebCrypto (the SDK's webhook check) and node:crypto (the service's signer). */
  readonly webCryptoSignPerS: number;
  readonly webCryptoVerifyPerS: number;
  readonly nodeCryptoSignPerS: number;
  readonly nodeCryptoVerifyPerS: number;
}

const CONCURRENCY = 32;
const HTTP_SECONDS = 1.5;
const CRYPTO_SECONDS = 1;

async function leaf(i: number): Promise<number> {
  await Promise.resolve();
  return i + 1;
}
async function middle(i: number): Promise<number> {
  return (await leaf(i)) + 1;
}
async function outer(i: number): Promise<number> {
  return (await middle(i)) + 1;
}

async function awaitLoopNs(iterations: number): Promise<number> {
  let sum = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) sum += await outer(i);
  const elapsed = Number(process.hrtime.bigint() - started);
  if (sum === 0) throw new Error('the loop did nothing');
  return elapsed / iterations;
}

/** Plain first: on Node.js 20 the first `run()` turns promise hooks on for the rest of the process. */
async function measureAsyncLocalStorage(): Promise<{ plain: number; inAls: number }> {
  const iterations = 300_000;
  await awaitLoopNs(iterations); // warm-up
  const plain = await awaitLoopNs(iterations);
  const als = new AsyncLocalStorage<{ readonly id: number }>();
  const inAls = await als.run({ id: 1 }, async () => {
    await awaitLoopNs(iterations); // warm-up with the context on
    return awaitLoopNs(iterations);
  });
  return { plain, inAls };
}

/** Calls `once` from `workers` loops for `seconds`; returns completed calls per second. */
async function ratePerSecond(seconds: number, workers: number, once: () => Promise<unknown>): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await once();
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: workers }, loop));
  return done / ((performance.now() - started) / 1000);
}

function httpGet(agent: Agent, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function fetchGet(url: string): Promise<string> {
  const res = await fetch(url);
  return res.text();
}

async function measureHttp(
  port: number,
): Promise<Pick<NodeLineRound, 'fetchSequentialPerS' | 'httpSequentialPerS' | 'fetchConcurrent32PerS' | 'httpConcurrent32PerS'>> {
  const url = `http://127.0.0.1:${port}/`;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  await ratePerSecond(0.3, CONCURRENCY, () => fetchGet(url)); // warm-up: connections and JIT
  await ratePerSecond(0.3, CONCURRENCY, () => httpGet(agent, port));
  const result = {
    fetchSequentialPerS: await ratePerSecond(HTTP_SECONDS, 1, () => fetchGet(url)),
    httpSequentialPerS: await ratePerSecond(HTTP_SECONDS, 1, () => httpGet(agent, port)),
    fetchConcurrent32PerS: await ratePerSecond(HTTP_SECONDS, CONCURRENCY, () => fetchGet(url)),
    httpConcurrent32PerS: await ratePerSecond(HTTP_SECONDS, CONCURRENCY, () => httpGet(agent, port)),
  };
  agent.destroy();
  return result;
}

async function measureEd25519(): Promise<Pick<NodeLineRound, 'webCryptoSignPerS' | 'webCryptoVerifyPerS' | 'nodeCryptoSignPerS' | 'nodeCryptoVerifyPerS'>> {
  // The same object as the global `crypto.subtle` the SDK uses, with node's types.
  const subtle = webcrypto.subtle;
  const ed25519 = { name: 'Ed25519' };
  const message = new Uint8Array(512).fill(7);
  const webKeys = await subtle.generateKey(ed25519, false, ['sign', 'verify']);
  if (!('privateKey' in webKeys)) throw new Error('Ed25519 made one key, not a pair');
  const webSignature = await subtle.sign(ed25519, webKeys.privateKey, message);
  const nodeKeys = generateKeyPairSync('ed25519');
  const nodeSignature = sign(null, message, nodeKeys.privateKey);
  const check = (ok: boolean): void => {
    if (!ok) throw new Error('an Ed25519 signature did not verify');
  };
  await ratePerSecond(0.2, 1, () => subtle.verify(ed25519, webKeys.publicKey, webSignature, message)); // warm-up
  return {
    webCryptoSignPerS: await ratePerSecond(CRYPTO_SECONDS, 1, () => subtle.sign(ed25519, webKeys.privateKey, message)),
    webCryptoVerifyPerS: await ratePerSecond(CRYPTO_SECONDS, 1, async () => check(await subtle.verify(ed25519, webKeys.publicKey, webSignature, message))),
    nodeCryptoSignPerS: await ratePerSecond(CRYPTO_SECONDS, 1, async () => sign(null, message, nodeKeys.privateKey)),
    nodeCryptoVerifyPerS: await ratePerSecond(CRYPTO_SECONDS, 1, async () => check(verify(null, message, nodeKeys.publicKey, nodeSignature))),
  };
}

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: node-lines.js <port of a server answering "ok">');
  // The AsyncLocalStorage figure first: nothing else in this process has touched async context yet.
  const als = await measureAsyncLocalStorage();
  const round: NodeLineRound = {
    node: process.version,
    awaitNsPlain: als.plain,
    awaitNsInAls: als.inAls,
    ...(await measureHttp(port)),
    ...(await measureEd25519()),
  };
  process.stdout.write(`${JSON.stringify(round)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
