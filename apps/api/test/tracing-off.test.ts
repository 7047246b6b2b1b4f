import test from 'ava';
import { RunItemJobs, UnitOfWork, type UnitOfWork as UnitOfWorkPort } from '@payments/core';
import { KnexUnitOfWork } from '@payments/storage-sql';
import { tracingEnabled } from '../src/tracing/tracing';
import { createBody, startTestApp, unique } from './helpers/test-app';

test('tracing is on only when an exporter or an OTLP endpoint is named, and OTEL_SDK_DISABLED is not true', (t) => {
  t.false(tracingEnabled({}));
  t.false(tracingEnabled({ OTEL_SERVICE_NAME: 'payments-api', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod' }));
  t.true(tracingEnabled({ OTEL_TRACES_EXPORTER: 'otlp' }));
  t.true(tracingEnabled({ OTEL_TRACES_EXPORTER: 'console' }));
  t.true(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }));
  t.true(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }));
  t.false(tracingEnabled({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }));
  t.false(tracingEnabled({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }));
  t.false(tracingEnabled({ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }));
  t.true(tracingEnabled({ OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }));
});

test('with tracing off a payment loads nothing of OpenTelemetry and runs on the adapters themselves', async (t) => {
  const t0 = await startTestApp();
  try {
    const shop = await t0.merchant();
    const created = await t0.request({
      method: 'POST',
      url: '/v1/payment_intents',
      key: shop.testKey,
      idempotencyKey: unique(),
      payload: createBody(),
      headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
    t.is(created.statusCode, 201);
    t.is(t0.app.tracing, undefined);
    // Nothing of the SDK was required in this process (ava runs each file in a worker of its own).
    // The API package alone is there: prom-client loads it (its no-op globals) for exemplars.
    t.deepEqual(
      Object.keys(require.cache).filter((path) => path.includes('/@opentelemetry/') && !path.includes('/@opentelemetry/api/')),
      [],
    );
    // Nor did anything register an OpenTelemetry global (context manager, tracer provider, propagator):
    // the API's context stays the no-op one, with no AsyncLocalStorage behind it.
    t.is((globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')], undefined);
    // The ports are the adapters, not wrappers.
    t.true(t0.app.get<UnitOfWorkPort>(UnitOfWork) instanceof KnexUnitOfWork);
    t.is(Object.getPrototypeOf(t0.app.get(RunItemJobs)), RunItemJobs.prototype);
    t.is(created.headers.traceparent, undefined);
  } finally {
    await t0.close();
  }
});
