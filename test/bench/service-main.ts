import { randomBytes } from 'node:crypto';
import { buildContainer, createServer, loadConfig } from '@payments/api';
import { CreateMerchant } from '@payments/core';
import { ScryptPasswordHasher } from '@payments/node-runtime';
import { failStart, serveUntilStopped, type ServiceReady } from './ipc';

/**
 * The real service, put together the way apps/api's main does (configuration from the
 * environment the bench prepared, the production container and server), listening on a real
 * socket. The one override is a cheap password hash: it is only used to create the merchant.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildContainer(config, { passwordHasher: new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 }) });
  try {
    const server = await createServer(app);
    await server.start();
    const suffix = randomBytes(6).toString('hex');
    const created = await app.get(CreateMerchant).execute({
      name: `Bench ${suffix}`,
      email: `bench-${suffix}@example.com`,
      password: 'correct horse battery staple',
    });
    const ready: ServiceReady = { port: server.info.port as number, merchantId: created.merchant.id, testKey: created.testApiKey.secret };
    serveUntilStopped(ready, async () => {
      await server.stop({ timeout: 5_000 });
      await app.close();
    });
  } catch (error) {
    await app.close();
    throw error;
  }
}

main().catch(failStart);
