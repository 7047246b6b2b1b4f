/**
 * The Node.js lines bench: runs node-lines.ts under each Node.js given, interleaved (A, B, A, B …)
 * so that the other work of a shared machine falls on every line alike, and prints the median and
 * the range of every figure as a Markdown table (docs/operations.md, "Node.js 24", quotes it).
 *
 *   npm run bench:node-lines -- [--rounds 7] <node binary> [<node binary> …]
 *
 * Without binaries it compares the Node.js that runs it with $NODE24 (a Node.js 24 binary, e.g.
 * from the npm registry's `node` package as .ci/run installs it). The HTTP server the clients call
 * lives in this process for the whole run, so only the client side differs between lines.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { loadAverage, machineInfo } from './machine';
import type { NodeLineRound } from './node-lines';
import { median } from './stats';

type Figure = Exclude<keyof NodeLineRound, 'node'>;

/** The table's rows: the figure and its label, with its unit. */
const ROWS: readonly { figure: Figure; label: string }[] = [
  { figure: 'awaitNsPlain', label: 'awaited async call (3 deep), no AsyncLocalStorage, ns' },
  { figure: 'awaitNsInAls', label: 'the same inside `als.run()`, ns' },
  { figure: 'fetchSequentialPerS', label: '`fetch`, one at a time, requests/s' },
  { figure: 'httpSequentialPerS', label: '`http.request` (keep-alive agent), one at a time, requests/s' },
  { figure: 'fetchConcurrent32PerS', label: '`fetch`, 32 in flight, requests/s' },
  { figure: 'httpConcurrent32PerS', label: '`http.request`, 32 in flight, requests/s' },
  { figure: 'webCryptoSignPerS', label: 'Ed25519 sign, WebCrypto (`crypto.subtle`), ops/s' },
  { figure: 'webCryptoVerifyPerS', label: 'Ed25519 verify, WebCrypto, ops/s' },
  { figure: 'nodeCryptoSignPerS', label: 'Ed25519 sign, `node:crypto`, ops/s' },
  { figure: 'nodeCryptoVerifyPerS', label: 'Ed25519 verify, `node:crypto`, ops/s' },
];

function parseArgs(argv: readonly string[]): { rounds: number; binaries: string[] } {
  let rounds = 7;
  const binaries: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--rounds') {
      rounds = Number(argv[(i += 1)]);
      if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of 1 or more');
    } else binaries.push(argv[i]);
  }
  if (binaries.length === 0) {
    if (!process.env.NODE24) throw new Error('give the Node.js binaries to compare, or set NODE24 to a Node.js 24 binary');
    binaries.push(process.execPath, process.env.NODE24);
  }
  return { rounds, binaries };
}

/** node-lines.js's JSON line, checked: the version a string, every figure a finite number. */
function parseRound(text: string): NodeLineRound {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`not a round: ${text}`);
  const fields = new Map<string, unknown>(Object.entries(parsed));
  const node = fields.get('node');
  if (typeof node !== 'string') throw new Error(`a round without its Node.js version: ${text}`);
  const figure = (name: Figure): number => {
    const value = fields.get(name);
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`a round without ${name}: ${text}`);
    return value;
  };
  return {
    node,
    awaitNsPlain: figure('awaitNsPlain'),
    awaitNsInAls: figure('awaitNsInAls'),
    fetchSequentialPerS: figure('fetchSequentialPerS'),
    httpSequentialPerS: figure('httpSequentialPerS'),
    fetchConcurrent32PerS: figure('fetchConcurrent32PerS'),
    httpConcurrent32PerS: figure('httpConcurrent32PerS'),
    webCryptoSignPerS: figure('webCryptoSignPerS'),
    webCryptoVerifyPerS: figure('webCryptoVerifyPerS'),
    nodeCryptoSignPerS: figure('nodeCryptoSignPerS'),
    nodeCryptoVerifyPerS: figure('nodeCryptoVerifyPerS'),
  };
}

function runRound(binary: string, port: number): Promise<NodeLineRound> {
  return new Promise((resolve, reject) => {
    execFile(binary, [join(__dirname, 'node-lines.js'), String(port)], { timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${binary}: ${error.message}\n${stderr}`));
      else resolve(parseRound(stdout));
    });
  });
}

const format = (value: number): string => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1));

async function main(): Promise<void> {
  const { rounds, binaries } = parseArgs(process.argv.slice(2));
  const server = createServer((_req, res) => res.end('ok'));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP port');
  const port = address.port;

  const loadBefore = loadAverage();
  const results = binaries.map(() => [] as NodeLineRound[]);
  for (let round = 1; round <= rounds; round += 1) {
    for (const [i, binary] of binaries.entries()) {
      const result = await runRound(binary, port);
      results[i].push(result);
      process.stderr.write(`round ${round}/${rounds}: ${result.node} done\n`);
    }
  }
  server.close();

  const versions = results.map((runs) => runs[0].node);
  const machine = machineInfo();
  const lines = [
    `${rounds} interleaved rounds per line on ${machine.cpuModel} (${machine.logicalCores} logical cores), load average ${loadBefore} before and ${loadAverage()} after; median (lowest–highest).`,
    '',
    `| | ${versions.join(' | ')} |`,
    `|---|${versions.map(() => '---:').join('|')}|`,
    ...ROWS.map(({ figure, label }) => {
      const cells = results.map((runs) => {
        const values = runs.map((run) => run[figure]);
        return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
      });
      return `| ${label} | ${cells.join(' | ')} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(`\nraw: ${JSON.stringify(results)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
