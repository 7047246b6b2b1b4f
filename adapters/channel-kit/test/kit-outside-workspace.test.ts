import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The kit as another team gets it: packed (`npm pack`), unpacked into a folder outside the
 * workspace next to their own adapter (plain JavaScript over a made-up provider), and run with
 * ava. Only the kit's peer dependencies (ava, nock) come from here, as they would from the registry.
 */
const KIT = join(__dirname, '..', '..');
const SOURCES = join(KIT, 'test', 'outside');
const WORKSPACE_MODULES = join(KIT, '..', '..', 'node_modules');

test('the packed kit runs the contract suite against an adapter in a folder outside the workspace', (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'channel-kit-outside-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  execFileSync('npm', ['pack', '--silent', '--pack-destination', folder], { cwd: KIT, stdio: ['ignore', 'pipe', 'pipe'] });
  const tarball = readdirSync(folder).find((file) => file.endsWith('.tgz'));
  if (!tarball) return t.fail('npm pack made no tarball');
  const installed = join(folder, 'node_modules', '@payments', 'channel-kit');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(folder, tarball), '-C', installed, '--strip-components=1']);
  for (const peer of ['ava', 'nock']) symlinkSync(join(WORKSPACE_MODULES, peer), join(folder, 'node_modules', peer), 'dir');
  cpSync(SOURCES, folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'toy-channel', private: true, ava: { files: ['*.test.cjs'] } }));

  const run = spawnSync(process.execPath, [join(WORKSPACE_MODULES, 'ava', 'entrypoints', 'cli.mjs')], { cwd: folder, encoding: 'utf8', timeout: 120_000 });
  t.is(run.status, 0, `${run.stdout}\n${run.stderr}`);
  t.regex(run.stdout, /10 tests passed/);
});
