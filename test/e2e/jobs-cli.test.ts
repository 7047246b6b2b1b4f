import test from 'ava';
import { loadConfig } from '@payments/api';
import { createKnex, createSqlStorage } from '@payments/storage-sql';
import { runAdmin, serviceEnvironment, type ServiceEnvironment } from './process';

let environment: ServiceEnvironment;
test.before(async () => {
  environment = await serviceEnvironment();
});
test.after.always(async () => environment?.cleanup());

test('jobs failures lists failing background items and jobs retry makes one due now', async (t) => {
  const env = environment.env;
  // Any admin command migrates the database first.
  t.is((await runAdmin(env, ['jobs', 'failures'])).code, 0);
  const knex = createKnex(loadConfig(env).databaseUrl);
  const failures = createSqlStorage(knex).jobItemFailures;
  const lastFailedAt = new Date('2026-09-01T10:00:00.000Z');
  const nextTryAt = new Date(Date.now() + 3_600_000);
  try {
    await failures.save({
      job: 'report-channel-settlements',
      lane: 'live',
      itemId: 'pi_STUCK',
      errorCode: 'ledger_unbalanced',
      errorMessage: 'Ledger transaction payment:pi_STUCK refused: fewer than two entries.',
      attempts: 3,
      firstFailedAt: new Date('2026-09-01T09:59:00.000Z'),
      lastFailedAt,
      nextTryAt,
    });

    const listed = await runAdmin(env, ['jobs', 'failures']);
    t.is(listed.code, 0, listed.stderr);
    t.deepEqual(JSON.parse(listed.stdout), {
      failures: [
        {
          job: 'report-channel-settlements',
          lane: 'live',
          item: 'pi_STUCK',
          error_code: 'ledger_unbalanced',
          error_message: 'Ledger transaction payment:pi_STUCK refused: fewer than two entries.',
          attempts: 3,
          first_failed_at: '2026-09-01T09:59:00.000Z',
          last_failed_at: lastFailedAt.toISOString(),
          next_try_at: nextTryAt.toISOString(),
        },
      ],
    });

    const retried = await runAdmin(env, ['jobs', 'retry', 'pi_STUCK']);
    t.is(retried.code, 0, retried.stderr);
    t.deepEqual(JSON.parse(retried.stdout), { retried: { item: 'pi_STUCK', records: 1 } });
    const [record] = await failures.forJob('report-channel-settlements', 'live');
    t.true((record?.nextTryAt.getTime() ?? Infinity) <= Date.now(), 'due now');

    const unknown = await runAdmin(env, ['jobs', 'retry', 'pi_NONE']);
    t.is(unknown.code, 1);
    t.like(JSON.parse(unknown.stderr.split('\n')[0] ?? '{}'), { error: { code: 'resource_not_found' } });
    t.is((await runAdmin(env, ['jobs', 'retry'])).code, 2, 'a usage error');
  } finally {
    await knex.destroy();
  }
});
