import { createKnex } from '@payments/storage-sql';
import { createBaselineServer } from './baseline-server';
import { failStart, serveUntilStopped, type BaselineReady } from './ipc';

/**
 * The baseline server in a process of its own, on the same database and with the same knex
 * configuration (createKnex) as the service. The parent passes the database URL and the merchant
 * whose rows it reads and writes.
 */
async function main(): Promise<void> {
  const databaseUrl = process.env['BENCH_DATABASE_URL'];
  const merchantId = process.env['BENCH_MERCHANT_ID'];
  if (!databaseUrl || !merchantId) throw new Error('BENCH_DATABASE_URL and BENCH_MERCHANT_ID are required');
  const knex = createKnex(databaseUrl);
  try {
    const server = createBaselineServer(knex, merchantId);
    await server.start();
    const ready: BaselineReady = { port: server.info.port as number };
    serveUntilStopped(ready, async () => {
      await server.stop({ timeout: 5_000 });
      await knex.destroy();
    });
  } catch (error) {
    await knex.destroy();
    throw error;
  }
}

main().catch(failStart);
