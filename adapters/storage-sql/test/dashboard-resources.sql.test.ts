import test from 'ava';
import { createSqlStorage } from '../src/create-sql-storage';
import { createTestDatabase } from '../src/testing/create-test-database';

test('a deleted webhook endpoint stays in its table as a tombstone, with the address it had', async (t) => {
  const database = await createTestDatabase();
  try {
    const { webhookEndpoints } = createSqlStorage(database.knex);
    const created = new Date('2026-09-01T00:00:00Z');
    await webhookEndpoints.insert({
      id: 'we_tombstone',
      merchantId: 'mch_a',
      mode: 'live',
      url: 'https://hooks.example.com/in',
      enabledEvents: [],
      apiVersion: '2026-09-01',
      status: 'enabled',
      secretSealed: 'v1.a.b.c',
      secretVersion: 1,
      created,
      updated: created,
    });
    t.true(await webhookEndpoints.markDeleted('mch_a', 'we_tombstone', new Date('2026-09-02T00:00:00Z')));
    const rows = await database
      .knex<{ id: string; url: string; secret_sealed: string; deleted_at: number | string | null }>('webhook_endpoints')
      .where({ id: 'we_tombstone' });
    t.is(rows.length, 1);
    t.like(rows[0], { url: 'https://hooks.example.com/in', secret_sealed: 'v1.a.b.c' });
    t.is(Number(rows[0].deleted_at), Date.parse('2026-09-02T00:00:00Z'));
  } finally {
    await database.destroy();
  }
});

test('one default payout destination per merchant and mode is a rule of the schema itself', async (t) => {
  const database = await createTestDatabase();
  try {
    const row = (id: string, mode: string) => ({
      id,
      merchant_id: 'mch_a',
      mode,
      type: 'simulated',
      currency: 'THB',
      account_holder: 'A',
      bank_code: '004',
      account_number_sealed: 'v1.a.b.c',
      account_number_last4: '1234',
      status: 'verified',
      default_marker: 1,
      created_at: 0,
    });
    await database.knex('payout_destinations').insert(row('pd_1', 'test'));
    await database.knex('payout_destinations').insert(row('pd_2', 'live'));
    await t.throwsAsync(database.knex('payout_destinations').insert(row('pd_3', 'test')), { any: true });
    await database.knex('payout_destinations').insert({ ...row('pd_4', 'test'), default_marker: null });
    await database.knex('payout_destinations').insert({ ...row('pd_5', 'test'), default_marker: null });
    t.is((await database.knex('payout_destinations').where({ merchant_id: 'mch_a' })).length, 4);
  } finally {
    await database.destroy();
  }
});
