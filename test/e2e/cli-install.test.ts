import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { jsonAt, textAt } from '../fixtures';
import { REPO_ROOT } from './process';

/*
 * What a developer gets from the two tarballs: `npm pack` of sdk/ and cli/ (as built by `tsc -b`),
 * installed offline into an empty folder outside the repository, then `npx payments` run from a
 * folder below it and the installed command run from elsewhere. Nothing of the repository's
 * node_modules can be reached from there, so a file missing from a tarball, or a dependency not
 * declared, fails here.
 */

let work: string;
let project: string;
let cliFiles: string[];
/** Only what npm and node need: a developer's own npm config or registry must not matter. */
let env: NodeJS.ProcessEnv;

const manifest = (dir: string): unknown => JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8'));

/** `npm pack` of a workspace package into `work`; its tarball's path and file list. */
function pack(dir: string): { tarball: string; files: string[] } {
  // --ignore-scripts: the build is the one under test (tsc -b ran before the tests), not a second one racing it.
  const output: unknown = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: join(REPO_ROOT, dir),
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const files = jsonAt(output, 0, 'files');
  if (!Array.isArray(files)) throw new Error(`npm pack --json answered ${JSON.stringify(output)}`);
  return { tarball: join(work, textAt(output, 0, 'filename')), files: files.map((file: unknown) => textAt(file, 'path')) };
}

test.before(() => {
  work = mkdtempSync(join(tmpdir(), 'payments-cli-install-'));
  const home = join(work, 'home');
  mkdirSync(home);
  env = { PATH: process.env.PATH, HOME: home, npm_config_cache: join(work, 'npm-cache'), npm_config_update_notifier: 'false' };
  const sdk = pack('sdk');
  const cli = pack('cli');
  cliFiles = cli.files;
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'shop', version: '1.0.0', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', sdk.tarball, cli.tarball], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
});
test.after.always(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the cli package is publishable: not private, a bin, the SDK by version, built files and fixtures only', (t) => {
  const cli = manifest('cli');
  t.is(jsonAt(cli, 'private'), undefined);
  t.is(jsonAt(cli, 'bin', 'payments'), 'dist/src/main.js');
  t.is(jsonAt(cli, 'dependencies', '@payments/sdk'), textAt(manifest('sdk'), 'version'));
  t.true(cliFiles.includes('dist/src/main.js') && cliFiles.includes('fixtures/payment.succeeded.json') && cliFiles.includes('README.md'));
  t.deepEqual(
    cliFiles.filter((file) => !/^(dist\/src\/.+\.(js|d\.ts)|fixtures\/[^/]+\.json|README\.md|package\.json)$/.test(file)),
    [],
    'no tests, sources or maps in the tarball',
  );
});

test('npx payments --version works in the installed project, from a folder below it', (t) => {
  const below = join(project, 'src', 'handlers');
  mkdirSync(below, { recursive: true });
  const run = spawnSync('npx', ['--no-install', 'payments', '--version'], { cwd: below, env, encoding: 'utf8' });
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, `payments ${textAt(manifest('cli'), 'version')} (@payments/sdk ${textAt(manifest('sdk'), 'version')}, node ${process.version})\n`);
  t.is(run.stderr, '');
});

test('the installed command runs from any folder: help, bundled scenarios, the SDK it was installed with', (t) => {
  const bin = join(project, 'node_modules', '.bin', 'payments');
  const elsewhere = mkdtempSync(join(tmpdir(), 'payments-cli-elsewhere-'));
  try {
    const help = spawnSync(bin, ['--help'], { cwd: elsewhere, env, encoding: 'utf8' });
    t.is(help.status, 0, help.stderr);
    t.regex(help.stdout, /^ {2}--version +Print the version/m);
    const scenarios = spawnSync(bin, ['trigger', '--list', '--json'], { cwd: elsewhere, env, encoding: 'utf8' });
    t.is(scenarios.status, 0, scenarios.stderr);
    t.true(JSON.stringify(JSON.parse(scenarios.stdout)).includes('"payment.succeeded"'));
    // The SDK the command loads is the installed tarball's, not the repository's.
    const resolved = execFileSync(
      process.execPath,
      ['-p', `require.resolve('@payments/sdk', { paths: [${JSON.stringify(join(project, 'node_modules', '@payments', 'cli'))}] })`],
      {
        cwd: elsewhere,
        env,
        encoding: 'utf8',
      },
    );
    t.is(resolved.trim(), join(project, 'node_modules', '@payments', 'sdk', 'dist', 'cjs', 'index.js'));
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});
