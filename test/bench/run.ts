import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { killStartedChildren } from './child-process';
import { markedSection, PROFILE_SECTION_END, PROFILE_SECTION_START, webhookSection, withMarkedSection, withWebhookSection } from './doc-sections';
import { runLeg, type LegResult } from './leg';
import { loadAverage, machineInfo, packageVersion } from './machine';
import { parseOptions, USAGE, UsageError, type BenchOptions } from './options';
import { summariseDirectory } from './profile-summary';
import { renderMarkdown, renderTables } from './report';

/** Compiled to test/dist/bench/run.js: three levels up is the repository root. */
const ROOT = resolve(__dirname, '..', '..', '..');
const REPORT_FILE = join(ROOT, 'docs', 'benchmarks.md');

/** Seconds of load: warm-up and measured runs of every side, and create's p99 runs at half load. */
function plannedSeconds(options: BenchOptions): number {
  const perSide = options.warmupS + options.repetitions * options.durationS;
  // Service and floor for create, replay, get and list; service, bare Hapi and node:http for no-I/O;
  // the ladder's three servers for create, get and list.
  const sides = 4 * 2 + 3 + (options.ladder ? 3 * 3 : 0);
  return options.databases.length * (sides * perSide + 2 * options.repetitions * options.durationS);
}

/**
 * The last line of defence for "ends on its own": far past the planned time, kill the servers
 * this bench started and exit non-zero. unref() so it never keeps a finished bench alive.
 */
function armWatchdog(options: BenchOptions): void {
  // The webhook bench (about 3 min here) runs under the same watchdog.
  const limitS = Math.ceil(plannedSeconds(options) * 2 + 180 + (options.skipWebhooks ? 0 : 600));
  setTimeout(() => {
    process.stderr.write(`bench: still running after ${limitS} s; killing its servers and giving up (a pt_* or pf_* database may be left behind)\n`);
    killStartedChildren();
    process.exit(2);
  }, limitS * 1000).unref();
}

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (options === undefined) {
    log(USAGE);
    return 0;
  }
  armWatchdog(options);
  log(`bench: ${options.databases.join(' and ')}, about ${Math.round(plannedSeconds(options) / 60)} min of load plus set-up`);

  const date = new Date();
  const machine = machineInfo();
  const loadBefore = loadAverage();
  if (loadBefore > machine.logicalCores / 2) {
    log(`bench: warning: load average ${loadBefore} on ${machine.logicalCores} cores; other work will skew the figures`);
  }
  const legs: LegResult[] = [];
  for (const kind of options.databases) legs.push(await runLeg(kind, options, log));

  const markdown = renderMarkdown({
    date,
    machine,
    options,
    legs,
    load: { before: loadBefore, after: loadAverage() },
    libraries: Object.fromEntries(['better-sqlite3', 'mysql2', '@hapi/hapi', 'knex', 'autocannon'].map((name) => [name, packageVersion(name)])),
  });
  if (options.profileDir !== undefined) {
    for (const leg of legs) if (leg.profileDir) log(`\n[${leg.kind}] profiles (service, floor and ladder processes):\n${summariseDirectory(leg.profileDir)}`);
  }
  if (options.profileDir !== undefined || options.scenarios !== undefined || !options.ladder) {
    // Profiled servers are slower and a subset of scenarios or a run without the ladder is not the report: print, do not record.
    log(`\n${renderTables(legs)}\n\nNot written to ${REPORT_FILE} (--profile / --scenarios / --no-ladder runs are for development).`);
    return 0;
  }
  // The "Webhook delivery" section belongs to `npm run bench:webhooks`, "Profile" is written by hand: keep them as they were.
  const existing = existsSync(REPORT_FILE) ? readFileSync(REPORT_FILE, 'utf8') : '';
  let document = markdown;
  const profile = markedSection(existing, PROFILE_SECTION_START, PROFILE_SECTION_END);
  if (profile !== undefined) document = withMarkedSection(document, profile, PROFILE_SECTION_START, PROFILE_SECTION_END);
  const kept = webhookSection(existing);
  if (kept !== undefined) document = withWebhookSection(document, kept);
  writeFileSync(REPORT_FILE, document);
  log(`\n${renderTables(legs)}\n\nWritten to ${REPORT_FILE}`);
  if (options.skipWebhooks) return 0;
  // The webhook goal belongs to the same run: the relay's bench writes its own section.
  return runWebhookBench(options);
}

/** `npm run bench:webhooks` as a child (it needs its own worker processes and receiver); its exit code. */
function runWebhookBench(options: BenchOptions): Promise<number> {
  const args = [join(__dirname, 'webhooks', 'run.js'), '--deliveries', '2000', '--reps', String(Math.max(3, options.repetitions)), '--timeout', '120'];
  log(`\nbench: the webhook relay (node ${args.map((arg) => arg.replace(`${ROOT}/`, '')).join(' ')})`);
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('exit', (code) => done(code ?? 1));
    child.on('error', () => done(1));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    else process.stderr.write(`\nBENCH FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
