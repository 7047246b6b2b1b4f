import { ReleaseFunds, ReportChannelSettlements, RunItemJobs, type ItemJob, type ItemPassResult } from '@payments/core';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import test from 'ava';
import { FakeClock } from '@payments/in-memory';
import type { AppContainer } from '../../src/container';
import { startTestApp, type TestApp } from './test-app';

/**
 * One pass of a background job over each of its lanes, through the runner the worker uses (a
 * failing item is recorded and skipped, as in production).
 */
export function runJob<T, R>(container: AppContainer, job: abstract new (...args: never[]) => ItemJob<T, R>, limit = 500): Promise<ItemPassResult<T, R>> {
  return container.get(RunItemJobs).runEveryLane(container.get(job), limit);
}

/**
 * One worker tick of the jobs a paid intent passes through on its way to available, a second after
 * the last: the simulator settles orders paid a tick ago, the channel settlement report makes the
 * intent `channel_settled`, and the release timer books pending → available.
 */
export function moneyTick(app: () => TestApp, clock: FakeClock): () => Promise<void> {
  return async () => {
    clock.advance(1000);
    const { app: container } = app();
    await container.get(SimulatorPaymentChannel).tick(500);
    await runJob(container, ReportChannelSettlements);
    await runJob(container, ReleaseFunds);
  };
}

/**
 * The whole app for one test file, on a fake clock: started before the file's tests, closed after
 * them, with its money tick. `app()` is the running app.
 */
export function appOnFakeClock(): { clock: FakeClock; app: () => TestApp; tick: () => Promise<void> } {
  const clock = new FakeClock(new Date());
  let running: TestApp | undefined;
  test.before(async () => {
    running = await startTestApp({ clock });
  });
  test.after.always(async () => running?.close());
  const app = (): TestApp => {
    if (!running) throw new Error('The test app is not started yet: use it inside a test.');
    return running;
  };
  return { clock, app, tick: moneyTick(app, clock) };
}
