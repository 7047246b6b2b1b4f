import test from 'ava';
import { InMemoryJobItemFailures, FakeClock } from '@payments/in-memory';
import { CoreError } from '../../../src/common/core-error';
import type { JobItemFailure, JobLane } from '../../../src/jobs/ports/job-item-failures.port';
import type { ItemJob } from '../../../src/jobs/use-cases/item-job';
import { JOB_ITEM_RETRY, RunItemJobs } from '../../../src/jobs/use-cases/run-item-jobs.use-case';

/**
 * A job over a queue of item ids that stay due until handled, like intents waiting for a change:
 * an item that keeps failing never moves and stays at the head of the queue, as the payment that
 * opened this work did (its rolled-back change left its sort key untouched).
 */
function queueJob(items: string[], fails: (id: string) => Error | undefined, lanes: readonly JobLane[] = ['test']) {
  const waiting = [...items];
  const handled: string[] = [];
  const job: ItemJob<string> & { concurrency?: number } = {
    name: 'queue-job',
    lanes,
    due: async (_lane, limit, deferred) => waiting.slice(0, limit + deferred.size),
    idOf: (id) => id,
    handle: async (id) => {
      const error = fails(id);
      if (error) throw error;
      waiting.splice(waiting.indexOf(id), 1);
      handled.push(id);
      return true;
    },
  };
  return { job, handled, waiting };
}

function setup() {
  const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
  const failures = new InMemoryJobItemFailures();
  const seen: JobItemFailure[] = [];
  const runner = new RunItemJobs({
    failures,
    clock,
    isOutage: (error) => error instanceof CoreError && error.category === 'unavailable',
    observer: { itemFailed: (failure) => seen.push(failure) },
  });
  return { clock, failures, runner, seen };
}

const broken = new CoreError('ledger_unbalanced', 'internal', 'Ledger transaction payment:bad refused: fewer than two entries.');

test('an item that throws is recorded with its code and next try, and the pass goes on with the others', async (t) => {
  const { clock, failures, runner, seen } = setup();
  const { job, handled } = queueJob(['a', 'bad', 'c'], (id) => (id === 'bad' ? broken : undefined));
  const result = await runner.run(job, 'test', 10);
  t.deepEqual(handled, ['a', 'c']);
  t.like(result, { progressed: 2, failed: 1, deferred: 0 });
  const [record] = await failures.forJob('queue-job', 'test');
  t.like(record, { itemId: 'bad', lane: 'test', errorCode: 'ledger_unbalanced', attempts: 1 });
  t.deepEqual(record?.nextTryAt, new Date(clock.now().getTime() + JOB_ITEM_RETRY.firstMs));
  t.deepEqual(
    seen.map((failure) => failure.itemId),
    ['bad'],
    'the operator sees it (metric and log)',
  );
});

test('a failing item at the head of the queue takes no place in the batch until its next try', async (t) => {
  const { runner } = setup();
  const { job, handled } = queueJob(['bad', 'x', 'y', 'z'], (id) => (id === 'bad' ? broken : undefined));
  await runner.run(job, 'test', 2);
  t.deepEqual(handled, ['x'], 'the first pass tried it once');
  const second = await runner.run(job, 'test', 2);
  t.deepEqual(handled, ['x', 'y', 'z'], 'the healthy items behind it fill the whole batch');
  t.like(second, { progressed: 2, failed: 0, deferred: 1 });
});

test('a failed item is tried again once due, with a doubling wait capped at an hour; a success clears its record', async (t) => {
  const { clock, failures, runner } = setup();
  let healthy = false;
  const { job, handled } = queueJob(['flaky'], () => (healthy ? undefined : new Error('boom')));
  const waits: number[] = [];
  for (let attempt = 1; attempt <= 12; attempt += 1) {
    await runner.run(job, 'test', 10);
    const [record] = await failures.forJob('queue-job', 'test');
    t.is(record?.attempts, attempt);
    t.is(record?.errorCode, 'Error', 'a foreign error keeps its name, never its message');
    t.is(record?.errorMessage, undefined);
    waits.push((record?.nextTryAt.getTime() ?? 0) - clock.now().getTime());
    await runner.run(job, 'test', 10);
    t.is((await failures.forJob('queue-job', 'test'))[0]?.attempts, attempt, 'not tried before its next try');
    clock.advance(waits[waits.length - 1] ?? 0);
  }
  t.deepEqual(waits.slice(0, 4), [10_000, 20_000, 40_000, 80_000]);
  t.is(Math.max(...waits), JOB_ITEM_RETRY.maxMs);
  healthy = true;
  await runner.run(job, 'test', 10);
  t.deepEqual(handled, ['flaky']);
  t.deepEqual(await failures.forJob('queue-job', 'test'), []);
});

test('an outage of a dependency every item needs stops the pass and blames no item', async (t) => {
  const { failures, runner } = setup();
  const { job, handled } = queueJob(['a', 'b'], () => new CoreError('api_error', 'unavailable', 'The database is unavailable.'));
  await t.throwsAsync(runner.run(job, 'test', 10), { message: 'The database is unavailable.' });
  t.deepEqual(handled, []);
  t.deepEqual(await failures.list(10), []);
});

test("the operator's retry makes a waiting item due at once", async (t) => {
  const { clock, failures, runner } = setup();
  let healthy = false;
  const { job, handled } = queueJob(['stuck'], () => (healthy ? undefined : broken));
  await runner.run(job, 'test', 10);
  healthy = true;
  await runner.run(job, 'test', 10);
  t.deepEqual(handled, [], 'still waiting for its next try');
  t.is(await failures.retryNow('stuck', clock.now()), 1);
  await runner.run(job, 'test', 10);
  t.deepEqual(handled, ['stuck']);
});

test('with a concurrency, items run at once and still fail on their own', async (t) => {
  const { runner } = setup();
  let running = 0;
  let most = 0;
  const ids = Array.from({ length: 12 }, (_, i) => `d${i}`);
  const { job, handled } = queueJob(ids, (id) => (id === 'd3' ? broken : undefined));
  const handle = job.handle.bind(job);
  job.handle = async (id, pass) => {
    running += 1;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running -= 1;
    return handle(id, pass);
  };
  job.concurrency = 4;
  const result = await runner.run(job, 'test', 12);
  t.is(most, 4);
  t.is(handled.length, 11);
  t.like(result, { progressed: 11, failed: 1 });
});

test("failures are kept per lane: a test item failing leaves the live lane's batch alone", async (t) => {
  const { failures, runner } = setup();
  const live = queueJob(['pi_live'], () => undefined, ['live', 'test']);
  const testLane = queueJob(['pi_test'], () => broken, ['live', 'test']);
  await runner.run(testLane.job, 'test', 10);
  t.is((await failures.forJob('queue-job', 'test')).length, 1);
  t.deepEqual(await failures.forJob('queue-job', 'live'), []);
  const result = await runner.run(live.job, 'live', 10);
  t.like(result, { progressed: 1, deferred: 0 });
});
