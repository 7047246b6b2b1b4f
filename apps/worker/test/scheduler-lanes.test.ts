import test from 'ava';
import pino from 'pino';
import { InMemoryLockManager } from '@payments/in-memory';
import { Scheduler } from '../src/scheduler';

const silent = pino({ level: 'silent' });

test('a test-mode pass that hangs never delays the live lane: each lane ticks on its own', async (t) => {
  let releaseTest: () => void = () => undefined;
  const testHangs = new Promise<number>((resolve) => {
    releaseTest = () => resolve(0);
  });
  let liveRuns = 0;
  let testRuns = 0;
  const scheduler = new Scheduler(
    [
      { name: 'test', jobs: [{ name: 'report-channel-settlements', everyMs: 0, run: () => ((testRuns += 1), testHangs) }] },
      { name: 'live', jobs: [{ name: 'report-channel-settlements', everyMs: 0, run: async () => ((liveRuns += 1), 0) }] },
    ],
    5,
    silent,
    new InMemoryLockManager(),
  );
  scheduler.start();
  const deadline = Date.now() + 5_000;
  while (liveRuns < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  t.true(liveRuns >= 5, `the live lane went on ticking (${liveRuns} passes) while the test lane was stuck`);
  t.is(testRuns, 1, 'the stuck test pass never overlapped itself');
  releaseTest();
  await scheduler.stop();
});

test('a job of one lane holds no lock against the same job of another lane', async (t) => {
  const locks = new InMemoryLockManager();
  const ran: string[] = [];
  const scheduler = new Scheduler(
    (['live', 'test'] as const).map((lane) => ({ name: lane, jobs: [{ name: 'pay-settlements', everyMs: 0, run: async () => (ran.push(lane), 0) }] })),
    1000,
    silent,
    locks,
  );
  await locks.withLock('job:live:pay-settlements', 60_000, async () => scheduler.pass(), { waitMs: 0 });
  t.deepEqual(ran, ['test'], 'live was busy in another worker; test ran');
});
