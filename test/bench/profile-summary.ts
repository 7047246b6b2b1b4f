import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The part of a V8 .cpuprofile (node --cpu-prof) this summary reads. */
interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }>;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  readonly name: string;
  readonly ms: number;
  readonly share: number;
}

/** Where a frame's code lives: the npm package, our workspace package, node's own, or V8's. */
function owner(url: string): string {
  if (url === '') return '(native / V8)';
  if (url.startsWith('node:')) return 'node:internals';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const workspace = /\/work\/[^/]+\/(.+?)\/dist\//.exec(url) ?? /\/([^/]+\/[^/]+)\/dist\//.exec(url);
  return workspace ? `ours: ${workspace[1]}` : url;
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(url.lastIndexOf('/', dist - 1) + 1) : url;
}

/** Self time per function and per package over one .cpuprofile, largest first. */
export function summarise(file: string, top = 25): { functions: SelfTime[]; packages: SelfTime[]; totalMs: number } {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a .cpuprofile file is V8's CPU profile format
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const perFunction = new Map<string, number>();
  const perPackage = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
    total += delta;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    perFunction.set(name, (perFunction.get(name) ?? 0) + delta);
    const pkg = frame.functionName === '(garbage collector)' ? '(garbage collector)' : owner(frame.url);
    perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + delta);
  });
  const ranked = (map: Map<string, number>): SelfTime[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms, share: total > 0 ? ms / total : 0 }));
  return { functions: ranked(perFunction), packages: ranked(perPackage), totalMs: total };
}

/** A text summary of every .cpuprofile in `directory` (busy time only: idle and (program) left out). */
export function summariseDirectory(directory: string, top = 25): string {
  const out: string[] = [];
  let files: string[];
  try {
    files = readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'));
  } catch {
    return `no profiles in ${directory}`;
  }
  for (const name of files) {
    const { functions, packages, totalMs } = summarise(join(directory, name), top);
    out.push(`${join(directory, name)}: ${Math.round(totalMs)} ms busy`, '  by package:');
    for (const entry of packages.slice(0, 15)) out.push(`    ${(entry.share * 100).toFixed(1).padStart(5)} %  ${entry.name}`);
    out.push('  by function (self time):');
    for (const entry of functions) out.push(`    ${(entry.share * 100).toFixed(1).padStart(5)} %  ${entry.name}`);
    out.push('');
  }
  return out.join('\n');
}

// `node test/dist/bench/profile-summary.js <dir> [top]` summarises a directory of profiles.
if (require.main === module) {
  const [directory, top] = process.argv.slice(2);
  if (!directory) {
    process.stderr.write('usage: node test/dist/bench/profile-summary.js <dir with .cpuprofile files> [top]\n');
    process.exitCode = 2;
  } else process.stdout.write(`${summariseDirectory(directory, Number(top ?? 25))}\n`);
}
