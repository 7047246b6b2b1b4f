import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AesGcmSecretBox } from '@payments/node-runtime';
import { createKnex, createSqlStorage } from '@payments/storage-sql';

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined) throw new Error(`The processes' environment has no ${name}.`);
  return value;
}

/**
 * Registers an enabled test-mode webhook endpoint for every event, straight in the database of the
 * processes `env` starts: the dashboard would refuse a local receiver's port-bearing test host.
 * The secret is sealed with the environment's master key, as the dashboard would seal it.
 */
export async function insertWebhookEndpoint(env: NodeJS.ProcessEnv, endpoint: { merchantId: string; url: string; secret: string }): Promise<void> {
  const knex = createKnex(env.PAYMENTS_DATABASE_URL ?? `sqlite:${join(required(env, 'PAYMENTS_DATA_DIR'), 'payments.sqlite')}`);
  try {
    const now = new Date();
    await createSqlStorage(knex).webhookEndpoints.insert({
      id: `we_${randomBytes(10).toString('hex')}`,
      merchantId: endpoint.merchantId,
      mode: 'test',
      url: endpoint.url,
      enabledEvents: [],
      apiVersion: '2026-09-01',
      status: 'enabled',
      secretSealed: new AesGcmSecretBox(Buffer.from(required(env, 'PAYMENTS_MASTER_KEY'), 'hex')).seal(endpoint.secret),
      secretVersion: 1,
      created: now,
      updated: now,
    });
  } finally {
    await knex.destroy();
  }
}
