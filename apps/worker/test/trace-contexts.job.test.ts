import test from 'ava';
import { buildContainer, createLogger } from '@payments/api';
import { FakeClock } from '@payments/in-memory';
import { TRACE_CONTEXT_RETENTION_MS, workerLanes } from '../src/jobs';
import { workerTestConfig } from './helpers/worker-test-config';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function platformJobNames(lanes: ReturnType<typeof workerLanes>): string[] {
  return lanes.find((lane) => lane.name === 'platform')?.jobs.map((job) => job.name) ?? [];
}

test('with tracing off the worker has no trace context job', async (t) => {
  const setup = await workerTestConfig('trace-off');
  const app = await buildContainer(setup.config, { logger: createLogger('silent') });
  try {
    t.is(app.traceContexts, undefined);
    t.false(platformJobNames(workerLanes(app)).includes('purge-trace-contexts'));
  } finally {
    await app.close();
    await setup.remove();
  }
});

test('with OTEL_TRACES_EXPORTER set the container traces, and the worker forgets trace contexts older than 30 days', async (t) => {
  // The console exporter: nothing leaves the machine, and this test makes no span.
  const setup = await workerTestConfig('trace-on', { OTEL_TRACES_EXPORTER: 'console' });
  const clock = new FakeClock(new Date('2026-09-01T12:00:00Z'));
  const app = await buildContainer(setup.config, { logger: createLogger('silent'), clock });
  try {
    t.truthy(app.tracing);
    const contexts = app.traceContexts;
    if (!contexts) return t.fail('no trace context store with tracing on');
    const purge = workerLanes(app)
      .find((lane) => lane.name === 'platform')
      ?.jobs.find((job) => job.name === 'purge-trace-contexts');
    if (!purge) return t.fail('no purge job with tracing on');
    const now = clock.now().getTime();
    await contexts.record('pi_old', TRACEPARENT, new Date(now - TRACE_CONTEXT_RETENTION_MS - 1));
    await contexts.record('pi_recent', TRACEPARENT, new Date(now - TRACE_CONTEXT_RETENTION_MS + 60_000));
    t.is(await purge.run(), 1);
    t.is(await contexts.find('pi_old'), undefined);
    t.is(await contexts.find('pi_recent'), TRACEPARENT);
  } finally {
    await app.close();
    await setup.remove();
  }
});
