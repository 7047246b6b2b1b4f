import { readFileSync } from 'node:fs';
import { createKnex } from '@payments/storage-sql';
import { createBaselineServer, type Templates } from './baseline-server';
import { failStart, serveUntilStopped, type BaselineReady } from './ipc';

/**
 * The baseline server in a process of its own, on the same database and with the same knex
 * configuration (createKnex) as the service. The parent passes the database URL and the file of
 * statement templates it captured from the service.
 */
async function main(): Promise<void> {
  const databaseUrl = process.env['BENCH_DATABASE_URL'];
  const templatesFile = process.env['BENCH_TEMPLATES_FILE'];
  if (!databaseUrl || !templatesFile) throw new Error('BENCH_DATABASE_URL and BENCH_TEMPLATES_FILE are required');
  const templates = JSON.parse(readFileSync(templatesFile, 'utf8')) as Templates;
  const knex = createKnex(databaseUrl);
  try {
    const server = createBaselineServer(knex, templates);
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const ready: BaselineReady = { port: (server.address() as { port: number }).port };
    serveUntilStopped(ready, async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await knex.destroy();
    });
  } catch (error) {
    await knex.destroy();
    throw error;
  }
}

main().catch(failStart);
