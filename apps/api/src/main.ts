import { loadConfig } from './config';
import { buildContainer } from './container';
import { startApi } from './start';

/** `npm run start:api`: the HTTP API alone (run workers separately with `npm run start:worker`). */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildContainer(config);
  await startApi(app, config);
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start the API: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
