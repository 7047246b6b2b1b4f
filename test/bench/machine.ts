import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { jsonAt } from '../fixtures';

/** The machine the numbers came from, as the report states it. */
export interface MachineInfo {
  readonly cpuModel: string;
  readonly logicalCores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly kernel: string;
}

/** The first `model name` of /proc/cpuinfo; os.cpus() as a fallback off Linux. */
function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('model name'));
    const model = line?.split(':').slice(1).join(':').trim();
    if (model) return model;
  } catch {
    // Not Linux: fall through to what Node reports.
  }
  return cpus()[0]?.model.trim() ?? 'unknown';
}

/** The 1-minute load average: other work on the machine skews every figure, so it is reported. */
export function loadAverage(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

export function machineInfo(): MachineInfo {
  return {
    cpuModel: cpuModel(),
    logicalCores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: `${process.platform} ${release()}`,
  };
}

/**
 * The installed version of a dependency, found by walking up from its resolved entry to its own
 * package.json (some packages' `exports` hide `<name>/package.json`). Undefined if not found.
 */
export function packageVersion(name: string): string | undefined {
  let directory: string;
  try {
    directory = dirname(require.resolve(name));
  } catch {
    return undefined;
  }
  // node_modules nesting is shallow; a dozen levels is far more than any package needs.
  for (let level = 0; level < 12; level += 1) {
    try {
      const manifest: unknown = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
      if (jsonAt(manifest, 'name') === name) {
        const version = jsonAt(manifest, 'version');
        return typeof version === 'string' ? version : undefined;
      }
    } catch {
      // No package.json at this level: keep climbing.
    }
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
  return undefined;
}
