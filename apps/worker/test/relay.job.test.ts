import { randomBytes } from 'node:crypto';
import test from 'ava';
import { workerTestConfig } from './helpers/worker-test-config';
import { freePort } from '@payments/node-runtime';
import { buildContainer, createLogger } from '@payments/api';
import {
  CreateMerchant,
  EventOutbox,
  newId,
  publishEvent,
  RandomSource,
  SecretBox,
  UnitOfWork,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type RandomSource as Random,
  type WebhookSender,
} from '@payments/core';
import { relayJob } from '../src/jobs';

test('the relay job says more is due when its drain was cut short on a full batch, and not once the backlog is sent', async (t) => {
  const port = await freePort();
  const { config, remove } = await workerTestConfig('relay', {
    PAYMENTS_HOST: '127.0.0.1',
    PAYMENTS_PORT: String(port),
    PAYMENTS_CHANNEL_CALLBACK_URL: `http://127.0.0.1:${port}`,
  });
  const sent: string[] = [];
  const sender: WebhookSender = {
    send: async (request) => {
      sent.push(request.headers['webhook-id'] ?? '');
      return { status: 200, latencyMs: 1 };
    },
  };
  const app = await buildContainer(config, { logger: createLogger('silent'), webhookSender: sender });
  try {
    const suffix = randomBytes(6).toString('hex');
    const { merchant } = await app
      .get(CreateMerchant)
      .execute({ name: `Shop ${suffix}`, email: `owner-${suffix}@example.com`, password: 'correct horse battery' });
    const random = app.get<Random>(RandomSource);
    const now = new Date();
    await app.get<WebhookEndpointRepository>(WebhookEndpointRepository).insert({
      id: newId(random, 'webhook_endpoint'),
      merchantId: merchant.id,
      mode: 'test',
      url: 'https://hooks.example.com/in',
      enabledEvents: [],
      apiVersion: '2026-09-01',
      status: 'enabled',
      secretSealed: app.get<SecretBox>(SecretBox).seal(randomBytes(32).toString('hex')),
      secretVersion: 1,
      created: now,
      updated: now,
    });
    const deps = {
      events: app.get<EventOutbox>(EventOutbox),
      webhookEndpoints: app.get<WebhookEndpointRepository>(WebhookEndpointRepository),
      webhookDeliveries: app.get<WebhookDeliveryRepository>(WebhookDeliveryRepository),
      random,
    };
    await app.get<UnitOfWork>(UnitOfWork).run(async (transaction) => {
      for (let i = 0; i < 120; i += 1) {
        const event = {
          id: newId(random, 'event'),
          type: 'payment_intent.canceled',
          merchantId: merchant.id,
          mode: 'test' as const,
          created: new Date(Math.floor(now.getTime() / 1000) * 1000),
          data: { id: `pi_${i}`, object: 'payment_intent', status: 'canceled', merchant: merchant.id, mode: 'test' as const },
        };
        await publishEvent(transaction.bind(deps), event, now);
      }
    });

    // A drain of no time at all: every run stops after its first batch of 50.
    const job = relayJob(app, 'test', { drainMs: 0 });
    t.is(job.moreDue?.(), false, 'nothing said before a run');
    t.is(await job.run(), 50);
    t.true(job.moreDue?.(), 'cut short on a full batch: more is due');
    t.is(await job.run(), 50);
    t.true(job.moreDue?.());
    t.is(await job.run(), 20);
    t.false(job.moreDue?.(), 'a short batch: the backlog is sent');
    t.is(await job.run(), 0);
    t.false(job.moreDue?.());
    t.is(new Set(sent).size, 120);
    t.is(sent.length, 120);
  } finally {
    await app.close();
    await remove();
  }
});
