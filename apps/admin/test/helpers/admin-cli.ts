import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = join(__dirname, '..', '..', 'src', 'main.js');

export interface AdminRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The built admin CLI as operators run it, on a SQLite file of its own in a new data directory
 * (`name` marks the directory); `remove` deletes the directory.
 */
export function adminCli(name: string): { admin: (...args: string[]) => AdminRun; database: string; remove: () => void } {
  const dataDir = mkdtempSync(join(tmpdir(), `payments-admin-${name}-`));
  const database = join(dataDir, 'payments.sqlite');
  const admin = (...args: string[]): AdminRun => {
    const { HOME, PATH } = process.env;
    const result = spawnSync(process.execPath, [MAIN, ...args], {
      env: { HOME, PATH, PAYMENTS_DATABASE_URL: `sqlite:${database}`, PAYMENTS_DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  return { admin, database, remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}
