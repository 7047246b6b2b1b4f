import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config';
import { buildContainer } from '../container';
import { createServer } from '../server';
import { buildDashboardOpenApi } from './build-dashboard-openapi';
import { buildOpenApi } from './build-openapi';

/**
 * `npm run openapi`: writes `docs/openapi.json` (the merchant API) and `docs/dashboard-openapi.json`
 * (the dashboard API) from the route table of a server built like the real one (on a throw-away
 * SQLite database, never started), so the first matches what `GET /v1/openapi.json` serves.
 */
async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-openapi-'));
  try {
    const config = loadConfig({ PAYMENTS_DATA_DIR: dataDir, LOG_LEVEL: 'silent', PAYMENTS_PORT: '0' });
    const app = await buildContainer(config);
    const server = await createServer(app);
    const docs = join(__dirname, '..', '..', '..', '..', '..', 'docs');
    const target = resolve(process.argv[2] ?? join(docs, 'openapi.json'));
    const dashboardTarget = resolve(process.argv[3] ?? join(docs, 'dashboard-openapi.json'));
    writeFileSync(target, `${JSON.stringify(buildOpenApi(server.table()), null, 2)}\n`);
    writeFileSync(dashboardTarget, `${JSON.stringify(buildDashboardOpenApi(server.table()), null, 2)}\n`);
    await app.close();
    process.stdout.write(`wrote ${target} and ${dashboardTarget}\n`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not write the OpenAPI document: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
