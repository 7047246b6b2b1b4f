import test from 'ava';
import pino from 'pino';
import { InMemoryLockManager } from '@payments/in-memory';
import { freePort } from '@payments/node-runtime';
import { numberAt, objectAt, type JsonObject } from '@payments/api/dist/test/helpers/json';
import { createKnex } from '@payments/storage-sql';
import { Scheduler, type Job, type Lane } from '../src/scheduler';

const silent = pino({ level: 'silent' });

function job(name: string, everyMs: number, run: () => Promise<number>): Job & { calls: number } {
  const counted = {
    name,
    everyMs,
    calls: 0,
    run: async () => {
      counted.calls += 1;
      return run();
    },
  };
  return counted;
}

/** The jobs as one lane: what these tests check holds within a lane. */
function lane(...jobs: Job[]): Lane[] {
  return [{ name: 'test', jobs }];
}

test('a pass runs every due job, and a failing job does not stop the others', async (t) => {
  const failing = job('failing', 0, async () => Promise.reject(new Error('boom')));
  const healthy = job('healthy', 0, async () => 1);
  const scheduler = new Scheduler(lane(failing, healthy), 1000, silent, new InMemoryLockManager());
  await scheduler.pass();
  await scheduler.pass();
  t.is(failing.calls, 2);
  t.is(healthy.calls, 2);
});

test('a job runs at most once per its interval', async (t) => {
  const hourly = job('hourly', 3_600_000, async () => 0);
  const scheduler = new Scheduler(lane(hourly), 1000, silent, new InMemoryLockManager());
  await scheduler.pass();
  await scheduler.pass();
  t.is(hourly.calls, 1);
});

test('of two workers sharing locks, one runs a job at a time and the other skips its turn', async (t) => {
  const locks = new InMemoryLockManager();
  let running = 0;
  let maxRunning = 0;
  const slowRun = async (): Promise<number> => {
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    await new Promise((r) => setTimeout(r, 30));
    running -= 1;
    return 0;
  };
  const a = job('expire', 0, slowRun);
  const b = job('expire', 0, slowRun);
  await Promise.all([new Scheduler(lane(a), 1000, silent, locks).pass(), new Scheduler(lane(b), 1000, silent, locks).pass()]);
  t.is(maxRunning, 1);
  t.is(a.calls + b.calls, 1);
});

test('start ticks on its own and stop waits for the pass under way', async (t) => {
  let running = 0;
  let overlapped = false;
  const slow = job('slow', 0, async () => {
    running += 1;
    if (running > 1) overlapped = true;
    await new Promise((r) => setTimeout(r, 20));
    running -= 1;
    return 0;
  });
  const scheduler = new Scheduler(lane(slow), 5, silent, new InMemoryLockManager());
  scheduler.start();
  // Two passes at least; a busy machine may need longer than the ~25 ms they take.
  for (let waited = 0; slow.calls < 2 && waited < 3000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  await scheduler.stop();
  const calls = slow.calls;
  t.true(calls >= 2);
  t.false(overlapped);
  t.is(running, 0);
  await new Promise((r) => setTimeout(r, 50));
  t.is(slow.calls, calls, 'no pass after stop');
});

test('a job that stopped with work still due gets the next pass at once, not a tick later', async (t) => {
  let left = 4;
  const draining: Job & { calls: number } = {
    ...job('relay', 0, async () => {
      left -= 1;
      return 1;
    }),
    moreDue: () => left > 0,
  };
  // A tick far longer than the test: only passes started at once can reach the fourth run.
  const scheduler = new Scheduler(lane(draining), 600_000, silent, new InMemoryLockManager());
  scheduler.start();
  for (let waited = 0; left > 0 && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 50));
  await scheduler.stop();
  t.is(left, 0, 'three passes at once while work was left, then the tick');
});

test('a job that is not exclusive runs in every worker at once', async (t) => {
  const locks = new InMemoryLockManager();
  let running = 0;
  let maxRunning = 0;
  const shared = (): Job & { calls: number } => ({
    ...job('relay', 0, async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 30));
      running -= 1;
      return 0;
    }),
    exclusive: false,
  });
  await Promise.all([new Scheduler(lane(shared()), 1000, silent, locks).pass(), new Scheduler(lane(shared()), 1000, silent, locks).pass()]);
  t.is(maxRunning, 2);
});

test('a job failing on an unreachable database is logged as skipped (warn, not error) and runs again on the next pass', async (t) => {
  const port = await freePort();
  const lines: JsonObject[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(objectAt(JSON.parse(line))) });
  const closed = createKnex(`mysql://root@127.0.0.1:${port}/payments`);
  let databaseUp = false;
  const pass = job('expire', 0, async () => {
    if (!databaseUp) await closed.raw('SELECT 1');
    return 1;
  });
  const scheduler = new Scheduler(lane(pass), 1000, logger, new InMemoryLockManager());
  try {
    await scheduler.pass();
    t.like(lines.at(-1), { level: 40, msg: 'job skipped: a dependency is unavailable', job: 'expire' });
    t.false(
      lines.some((line) => numberAt(line, 'level') >= 50),
      'an outage is not logged as an error',
    );
    databaseUp = true;
    await scheduler.pass();
    t.is(pass.calls, 2);
    t.like(lines.at(-1), { level: 30, msg: 'job done', job: 'expire' });
  } finally {
    await closed.destroy();
  }
});
