import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMariaDbDatabase, dropMariaDbDatabase } from './floor-mariadb';
import type { DatabaseKind } from './options';

/** The floor's own empty database, made and dropped by the bench (so a killed floor leaves none behind). */
export interface FloorDatabase {
  /** What the floor child is given: `mysql://…/pf_<random>` or `sqlite:<file>`. */
  readonly url: string;
  /** For the log: the database's name, never the URL (it may carry a password). */
  readonly name: string;
  destroy(): Promise<void>;
}

export async function createFloorDatabase(kind: DatabaseKind, mariadbUrl: string): Promise<FloorDatabase> {
  if (kind === 'sqlite') {
    const directory = mkdtempSync(join(tmpdir(), 'payments-floor-'));
    return {
      url: `sqlite:${join(directory, 'floor.sqlite')}`,
      name: 'a temporary SQLite file',
      destroy: async () => rmSync(directory, { recursive: true, force: true }),
    };
  }
  // Only [a-z0-9_] in the name, so it can go into DDL as it is.
  const name = `pf_${randomBytes(8).toString('hex')}`;
  const url = await createMariaDbDatabase(mariadbUrl, name);
  return { url, name, destroy: () => dropMariaDbDatabase(mariadbUrl, name) };
}
