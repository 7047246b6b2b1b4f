import { createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { AesGcmSecretBox, CryptoWebhookCrypto } from '@payments/node-runtime';
import test from 'ava';
import type { DomainEvent } from '../../src/webhooks/domain/event.entity';
import { publishEvent } from '../../src/webhooks/use-cases/event-publishing';
import { renderEventBody } from '../../src/webhooks/domain/event-rendering';
import { isRecord } from '../../src/common/guards';
import { newId } from '../../src/common/ids';
import type { Mode } from '../../src/common/mode';
import type { WebhookEndpoint } from '../../src/webhooks/domain/webhook-endpoint.entity';
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../../src/webhooks/ports/webhook-sender.port';
import type { DeliveryAttemptRecord, WebhookDeliveryRepository } from '../../src/webhooks/ports/webhook-delivery.repository.port';
import { PlatformKeys } from '../../src/webhooks/use-cases/platform-keys.use-case';
import { RelayWebhookDeliveries } from '../../src/webhooks/use-cases/relay-webhook-deliveries.use-case';
import { ResendWebhookDelivery } from '../../src/webhooks/use-cases/webhook-deliveries.use-cases';
import { AuditRecorder } from '../../src/dashboard/use-cases/audit';
import { renderNotice } from '../../src/dashboard/domain/notice.entity';
import { harness } from './harness';

/** Answers each request with the next status of a script (the last repeats), recording every request. */
class ScriptedSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  inFlight = 0;
  maxInFlightPerUrl = new Map<string, number>();
  constructor(
    public statuses: (number | undefined)[],
    private readonly delayMs = 0,
  ) {}
  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    const status = this.statuses.length > 1 ? this.statuses.shift() : this.statuses[0];
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return status === undefined ? { error: 'connection refused', latencyMs: 1 } : { status, latencyMs: 3 };
  }
}

/** The fields of a delivered body (the relay renders each event as a JSON object). */
function fieldsOf(body: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(body);
  if (!isRecord(parsed)) throw new TypeError(`Not a JSON object: ${body}`);
  return parsed;
}

/** The storage's delivery repository with its two attempt writes seen (and replaced) by the test. */
function watchedWrites(
  repository: WebhookDeliveryRepository,
  writes: {
    shared?: (records: readonly DeliveryAttemptRecord[], write: () => Promise<boolean[]>) => Promise<boolean[]>;
    single?: (record: DeliveryAttemptRecord, write: () => Promise<boolean>) => Promise<boolean>;
  },
): WebhookDeliveryRepository {
  const replaced: Pick<WebhookDeliveryRepository, 'recordAttempts' | 'recordAttempt'> = {
    recordAttempts: (records) => (writes.shared ?? ((_r, write) => write()))(records, () => repository.recordAttempts(records)),
    recordAttempt: (next, heldUntil, attempt) =>
      (writes.single ?? ((_r, write) => write()))({ next, heldUntil, attempt }, () => repository.recordAttempt(next, heldUntil, attempt)),
  };
  return new Proxy(repository, {
    get: (target, property, receiver): unknown =>
      property === 'recordAttempts' || property === 'recordAttempt' ? replaced[property] : Reflect.get(target, property, receiver),
  });
}

function setup(
  sender: WebhookSender,
  activationSeconds = 3600,
  deliveriesOf: (repository: WebhookDeliveryRepository) => WebhookDeliveryRepository = (repository) => repository,
) {
  const h = harness();
  const secretBox = new AesGcmSecretBox(randomBytes(32));
  const crypto = new CryptoWebhookCrypto();
  const platformKeys = new PlatformKeys({ keys: h.storage.platformKeys, crypto, secretBox, clock: h.clock, random: h.random, options: { activationSeconds } });
  const relay = new RelayWebhookDeliveries({
    uow: h.storage.uow,
    deliveries: deliveriesOf(h.storage.webhookDeliveries),
    endpoints: h.storage.webhookEndpoints,
    merchants: h.storage.merchants,
    notices: h.storage.notices,
    sender,
    crypto,
    secretBox,
    platformKeys,
    clock: h.clock,
    random: h.random,
  });
  const publishDeps = {
    events: h.storage.events,
    webhookEndpoints: h.storage.webhookEndpoints,
    webhookDeliveries: h.storage.webhookDeliveries,
    random: h.random,
  };
  const addEndpoint = async (merchantId: string, overrides: Partial<WebhookEndpoint> = {}): Promise<WebhookEndpoint & { secret: string }> => {
    const secret = randomBytes(32).toString('hex');
    const endpoint: WebhookEndpoint = {
      id: newId(h.random, 'webhook_endpoint'),
      merchantId,
      mode: 'test',
      url: 'https://hooks.example.com/in',
      enabledEvents: [],
      apiVersion: '2026-09-01',
      status: 'enabled',
      secretSealed: secretBox.seal(secret),
      secretVersion: 1,
      created: h.clock.now(),
      updated: h.clock.now(),
      ...overrides,
    };
    await h.storage.webhookEndpoints.insert(endpoint);
    return { ...endpoint, secret };
  };
  const event = (merchantId: string, type = 'payment_intent.succeeded', mode: Mode = 'test'): DomainEvent => ({
    id: newId(h.random, 'event'),
    type,
    merchantId,
    mode,
    created: new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000),
    data: { id: 'pi_1', object: 'payment_intent', status: type.split('.')[1], merchant: merchantId, mode },
  });
  const publish = (e: DomainEvent) => h.storage.uow.run((transaction) => publishEvent(transaction.bind(publishDeps), e, h.clock.now()));
  const audit = new AuditRecorder({ log: h.storage.audit, clock: h.clock, random: h.random });
  const resend = new ResendWebhookDelivery({ uow: h.storage.uow, deliveries: h.storage.webhookDeliveries, audit, clock: h.clock });
  /** One relay pass over every lane: how many deliveries it claimed and how many of them were delivered. */
  const relayPass = async (limit: number) => {
    const { outcomes, failed, progressed } = await h.runJob(relay, limit);
    return { claimed: outcomes.length + failed, delivered: progressed };
  };
  return { ...h, secretBox, crypto, platformKeys, relayPass, addEndpoint, event, publish, resend, publishDeps };
}

test('fan-out: one delivery per enabled, subscribed endpoint of the mode; disabled, deleted, other mode and other merchant get nothing', async (t) => {
  const s = setup(new ScriptedSender([200]));
  const { merchant } = await s.newMerchant();
  const { merchant: other } = await s.newMerchant();
  const all = await s.addEndpoint(merchant.id);
  const succeededOnly = await s.addEndpoint(merchant.id, { enabledEvents: ['payment_intent.succeeded'] });
  await s.addEndpoint(merchant.id, { status: 'disabled' });
  const deleted = await s.addEndpoint(merchant.id);
  await s.storage.webhookEndpoints.markDeleted(merchant.id, deleted.id, s.clock.now());
  await s.addEndpoint(merchant.id, { mode: 'live' });
  await s.addEndpoint(other.id);

  const canceled = await s.publish(s.event(merchant.id, 'payment_intent.canceled'));
  t.deepEqual(
    canceled.map((d) => d.endpointId),
    [all.id],
  );
  const succeeded = await s.publish(s.event(merchant.id, 'payment_intent.succeeded'));
  t.deepEqual(succeeded.map((d) => d.endpointId).sort(), [all.id, succeededOnly.id].sort());
  const page = await s.storage.webhookDeliveries.list({ merchantId: merchant.id, mode: 'test' }, { limit: 10 });
  t.is(page.data.length, 3);
  t.true(page.data.every((d) => d.status === 'pending' && d.attempts === 0 && d.url === 'https://hooks.example.com/in'));
  t.is((await s.storage.webhookDeliveries.list({ merchantId: other.id, mode: 'test' }, { limit: 10 })).data.length, 0);
});

test('fan-out shares the transaction: a rolled-back change queues neither the event nor its deliveries', async (t) => {
  const s = setup(new ScriptedSender([200]));
  const { merchant } = await s.newMerchant();
  await s.addEndpoint(merchant.id);
  await t.throwsAsync(
    s.storage.uow.run(async (transaction) => {
      await publishEvent(transaction.bind(s.publishDeps), s.event(merchant.id), s.clock.now());
      throw new Error('the change failed');
    }),
    { message: 'the change failed' },
  );
  t.is((await s.storage.events.list({ merchantId: merchant.id, mode: 'test' }, {}, { limit: 10 })).data.length, 0);
  t.is((await s.storage.webhookDeliveries.list({ merchantId: merchant.id, mode: 'test' }, { limit: 10 })).data.length, 0);
  t.is((await s.relayPass(10)).claimed, 0);
});

test('retry schedule attempt by attempt: 1 min, 5 min, 30 min, 2 h, 8 h, 24 h, then failed without next_retry_at until a resend', async (t) => {
  const sender = new ScriptedSender([500]);
  const s = setup(sender);
  const { merchant } = await s.newMerchant();
  await s.addEndpoint(merchant.id);
  const [queued] = await s.publish(s.event(merchant.id));
  const id = queued.id;
  const scope = { merchantId: merchant.id, mode: 'test' as const };
  const waits = [60_000, 300_000, 1_800_000, 7_200_000, 28_800_000, 86_400_000];
  for (let attempt = 1; attempt <= 6; attempt += 1) {
    const before = s.clock.now().getTime();
    t.is((await s.relayPass(10)).claimed, 1, `attempt ${attempt} is made`);
    const delivery = (await s.storage.webhookDeliveries.findById(scope, id))!;
    t.is(delivery.attempts, attempt);
    t.is(delivery.status, 'pending');
    t.is(delivery.responseStatus, 500);
    t.is(delivery.nextRetryAt!.getTime() - before, waits[attempt - 1], `wait after attempt ${attempt}`);
    s.clock.advance(waits[attempt - 1] - 1);
    t.is((await s.relayPass(10)).claimed, 0, 'nothing before it is due');
    s.clock.advance(1);
  }
  t.is((await s.relayPass(10)).claimed, 1);
  const stopped = (await s.storage.webhookDeliveries.findById(scope, id))!;
  t.is(stopped.attempts, 7);
  t.is(stopped.status, 'failed');
  t.is(stopped.nextRetryAt, undefined);
  s.clock.advance(86_400_000);
  t.is((await s.relayPass(10)).claimed, 0, 'no further attempt after the seventh');
  t.is((await s.storage.webhookDeliveries.listAttempts(id)).length, 7);

  // A resend re-arms exactly one attempt; failing it, the delivery is failed again.
  const actor = (await s.storage.users.listByMerchant(merchant.id))[0];
  const rearmed = await s.resend.execute(actor, 'test', id);
  t.is(rearmed.status, 'pending');
  t.is(rearmed.nextRetryAt!.getTime(), s.clock.now().getTime());
  t.is(sender.requests.length, 7, 'the resend itself calls nothing');
  t.is((await s.relayPass(10)).claimed, 1);
  const again = (await s.storage.webhookDeliveries.findById(scope, id))!;
  t.is(again.status, 'failed');
  t.is(again.attempts, 8);
  t.is(again.nextRetryAt, undefined);

  sender.statuses = [204];
  await s.resend.execute(actor, 'test', id);
  await s.relayPass(10);
  const delivered = (await s.storage.webhookDeliveries.findById(scope, id))!;
  t.is(delivered.status, 'delivered');
  t.is(delivered.attempts, 9);
  t.is(delivered.responseStatus, 204);
  const ids = new Set(sender.requests.map((r) => fieldsOf(r.body).id));
  t.is(ids.size, 1, 'the same event id on every attempt and resend');
  t.is((await s.storage.webhookDeliveries.listAttempts(id)).length, 9);
});

test('a retry goes to the url the endpoint has now: a merchant who fixes a broken url gets the pending deliveries there', async (t) => {
  const sender = new ScriptedSender([500, 200]);
  const s = setup(sender);
  const { merchant } = await s.newMerchant();
  const endpoint = await s.addEndpoint(merchant.id, { url: 'https://old.example.com/hooks' });
  const [queued] = await s.publish(s.event(merchant.id));
  const scope = { merchantId: merchant.id, mode: 'test' as const };
  await s.relayPass(10);
  t.is(sender.requests[0].url, 'https://old.example.com/hooks');
  const { secret: _secret, ...stored } = endpoint;
  void _secret;
  t.true(await s.storage.webhookEndpoints.update({ ...stored, url: 'https://new.example.com/hooks', updated: s.clock.now() }));
  s.clock.advance(60_000);
  t.is((await s.relayPass(10)).claimed, 1);
  t.is(sender.requests[1].url, 'https://new.example.com/hooks');
  t.like(await s.storage.webhookDeliveries.findById(scope, queued.id), { status: 'delivered', url: 'https://new.example.com/hooks' });
});

test('another merchant cannot resend a delivery (404)', async (t) => {
  const s = setup(new ScriptedSender([200]));
  const { merchant } = await s.newMerchant();
  const { merchant: other } = await s.newMerchant();
  await s.addEndpoint(merchant.id);
  const [queued] = await s.publish(s.event(merchant.id));
  const intruder = (await s.storage.users.listByMerchant(other.id))[0];
  await t.throwsAsync(s.resend.execute(intruder, 'test', queued.id), { message: /webhook delivery/ });
});

test('two relay passes at once send every delivery exactly once', async (t) => {
  const sender = new ScriptedSender([200], 20);
  const s = setup(sender);
  const { merchant } = await s.newMerchant();
  await s.addEndpoint(merchant.id);
  for (let i = 0; i < 30; i += 1) await s.publish(s.event(merchant.id));
  const [a, b] = await Promise.all([s.relayPass(20), s.relayPass(20)]);
  await s.relayPass(20);
  t.is(a.claimed + b.claimed <= 30, true);
  const ids = sender.requests.map((r) => fieldsOf(r.body).id);
  t.is(ids.length, 30);
  t.is(new Set(ids).size, 30);
});

test('a pass that dies mid-delivery leaves the delivery due again once its lease runs out', async (t) => {
  const sender = new ScriptedSender([200]);
  const s = setup(sender);
  const { merchant } = await s.newMerchant();
  await s.addEndpoint(merchant.id);
  await s.publish(s.event(merchant.id));
  const now = s.clock.now();
  const claimed = await s.storage.webhookDeliveries.claimDue('test', now, new Date(now.getTime() + 60_000), 10);
  t.is(claimed.length, 1); // …and the worker is killed here.
  t.is((await s.relayPass(10)).claimed, 0, 'leased: not claimed twice');
  s.clock.advance(60_000);
  t.is((await s.relayPass(10)).delivered, 1);
  t.is(sender.requests.length, 1);
});

test('signatures verify independently: v1 HMAC, v2 Ed25519 and the Standard Webhooks headers; body as rendered', async (t) => {
  const sender = new ScriptedSender([200]);
  const s = setup(sender);
  const { merchant } = await s.newMerchant();
  const endpoint = await s.addEndpoint(merchant.id);
  const e = s.event(merchant.id);
  await s.publish(e);
  await s.relayPass(10);
  const [request] = sender.requests;
  t.truthy(request);
  const { body, headers } = request;
  t.is(body, renderEventBody(e, '2026-09-01'));
  t.deepEqual(Object.keys(fieldsOf(body)), ['id', 'type', 'created', 'livemode', 'data']);
  t.regex(String(fieldsOf(body).created), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.is(headers['content-type'], 'application/json; charset=utf-8');
  t.is(request.timeoutMs, 10_000);

  const parts = Object.fromEntries(
    headers['x-webhook-signature'].split(',').map((p): [string, string] => {
      const [name, value] = p.split('=', 2);
      return [name, value];
    }),
  );
  const sigHeader = headers['x-webhook-signature'];
  const v2 = /v2=([^,]+)/.exec(sigHeader)![1];
  t.is(parts.v1_kid, '1');
  t.regex(parts.v2_kid, /^key_[A-Z2-7]+$/);
  t.is(String(Math.floor(s.clock.now().getTime() / 1000)), parts.t);
  const key = Buffer.from(endpoint.secret, 'hex');
  t.is(parts.v1, createHmac('sha256', key).update(`${parts.t}.${body}`).digest('hex'));
  const [published] = await s.platformKeys.published();
  t.is(published.id, parts.v2_kid);
  const publicKey = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(published.publicKey, 'base64').toString('base64url') },
    format: 'jwk',
  });
  t.true(verify(null, Buffer.from(`${parts.t}.${body}`), publicKey, Buffer.from(v2, 'base64')));

  t.is(headers['webhook-id'], e.id);
  t.is(headers['webhook-timestamp'], parts.t);
  const [hmacSig, edSig] = headers['webhook-signature'].split(' ');
  const message = `${e.id}.${parts.t}.${body}`;
  t.is(hmacSig, `v1,${createHmac('sha256', key).update(message).digest('base64')}`);
  t.true(edSig.startsWith('v1a,'));
  t.true(verify(null, Buffer.from(message), publicKey, Buffer.from(edSig.slice(4), 'base64')));
});

test('key rotation: the new key is published at once and signs only after the activation delay', async (t) => {
  const sender = new ScriptedSender([200]);
  const s = setup(sender, 3600);
  const first = await s.platformKeys.signingKey();
  const rotated = await s.platformKeys.rotate();
  t.deepEqual(
    (await s.platformKeys.published()).map((k) => k.id),
    [first.id, rotated.id],
  );
  t.is((await s.platformKeys.signingKey()).id, first.id);
  s.clock.advance(3_599_000);
  t.is((await s.platformKeys.signingKey()).id, first.id);
  s.clock.advance(1000);
  t.is((await s.platformKeys.signingKey()).id, rotated.id);
  const { merchant } = await s.newMerchant();
  await s.addEndpoint(merchant.id);
  await s.publish(s.event(merchant.id));
  await s.relayPass(10);
  t.true(sender.requests[0].headers['x-webhook-signature'].endsWith(`v2_kid=${rotated.id}`));
});

test('concurrent first use creates one platform key', async (t) => {
  const s = setup(new ScriptedSender([200]));
  const keys = await Promise.all([s.platformKeys.signingKey(), s.platformKeys.signingKey(), s.platformKeys.published()]);
  t.is((await s.storage.platformKeys.list()).length, 1);
  t.is(keys[0].id, keys[1].id);
});

test('an endpoint answering 410 is disabled with a notice; nothing more is sent to it', async (t) => {
  const sender = new ScriptedSender([410]);
  const s = setup(sender);
  const { merchant } = await s.newMerchant();
  const endpoint = await s.addEndpoint(merchant.id);
  await s.publish(s.event(merchant.id));
  await s.relayPass(10);
  t.like(await s.storage.webhookEndpoints.findById(merchant.id, endpoint.id), { status: 'disabled', disabledReason: 'gone' });
  const notices = await s.storage.notices.listForMerchant(merchant.id, 10);
  const notice = notices.find((n) => n.kind === 'webhook_endpoint.disabled' && n.details.reason === 'gone');
  t.truthy(notice);
  t.regex(renderNotice(notice!).text, /answered 410 Gone/);
  t.deepEqual(await s.publish(s.event(merchant.id)), []);
});

test('an endpoint failing continuously for five days is disabled; one success resets the count', async (t) => {
  const sender = new ScriptedSender([503]);
  const s = setup(sender);
  const { merchant } = await s.newMerchant();
  const endpoint = await s.addEndpoint(merchant.id);
  const day = 86_400_000;
  for (let i = 0; i < 5; i += 1) {
    await s.publish(s.event(merchant.id));
    await s.relayPass(10);
    t.is((await s.storage.webhookEndpoints.findById(merchant.id, endpoint.id))!.status, 'enabled', `day ${i}`);
    s.clock.advance(day);
  }
  await s.publish(s.event(merchant.id));
  await s.relayPass(100);
  t.like(await s.storage.webhookEndpoints.findById(merchant.id, endpoint.id), { status: 'disabled', disabledReason: 'failing' });
  const health = await s.storage.webhookDeliveries.endpointHealth(endpoint.id);
  t.is(health.successes, 0);
  t.true(health.attempts > 0);
  t.is(health.lastError, 'HTTP 503');
});

test("a pass's attempts are stored a few transactions at a time, not one each", async (t) => {
  const writes: number[] = [];
  const s = setup(new ScriptedSender([200]), 3600, (repository) =>
    watchedWrites(repository, {
      shared: (records, write) => {
        writes.push(records.length);
        return write();
      },
      single: (_record, write) => {
        writes.push(1);
        return write();
      },
    }),
  );
  const { merchant } = await s.newMerchant();
  await s.addEndpoint(merchant.id);
  for (let i = 0; i < 30; i += 1) await s.publish(s.event(merchant.id));
  t.like(await s.relayPass(50), { claimed: 30, delivered: 30 });
  t.is(
    writes.reduce((sum, n) => sum + n, 0),
    30,
    'each attempt stored once',
  );
  t.true(writes.length <= 3, `${writes.length} writes for 30 attempts`);
  const stored = await s.storage.webhookDeliveries.list({ merchantId: merchant.id, mode: 'test' }, { limit: 50 });
  t.true(stored.data.every((delivery) => delivery.status === 'delivered' && delivery.lockedUntil === undefined));
});

test('a record that cannot be stored fails its own delivery only: the others of its shared write are stored one by one', async (t) => {
  let bad = '';
  const shared: string[][] = [];
  const s = setup(new ScriptedSender([200]), 3600, (repository) =>
    watchedWrites(repository, {
      shared: (records, write) => {
        shared.push(records.map((record) => record.next.id));
        return records.some((record) => record.next.id === bad) ? Promise.reject(new Error('row too large')) : write();
      },
      single: (record, write) => (record.next.id === bad ? Promise.reject(new Error('row too large')) : write()),
    }),
  );
  const { merchant } = await s.newMerchant();
  await s.addEndpoint(merchant.id);
  const queued = [];
  for (let i = 0; i < 5; i += 1) queued.push(...(await s.publish(s.event(merchant.id))));
  bad = queued[2].id;
  t.like(await s.relayPass(10), { claimed: 5, delivered: 4 });
  t.true(
    shared.some((ids) => ids.length > 1 && ids.includes(bad)),
    'the bad record went in a shared write with others',
  );
  const scope = { merchantId: merchant.id, mode: 'test' as const };
  for (const delivery of queued) {
    const stored = (await s.storage.webhookDeliveries.findById(scope, delivery.id))!;
    const attempts = await s.storage.webhookDeliveries.listAttempts(delivery.id);
    if (delivery.id === bad) {
      t.like(stored, { status: 'pending', attempts: 0 }, 'nothing stored: still leased, sent again when the lease runs out');
      t.not(stored.lockedUntil, undefined);
      t.is(attempts.length, 0);
    } else {
      t.like(stored, { status: 'delivered', attempts: 1, lockedUntil: undefined });
      t.is(attempts.length, 1);
    }
  }
  const failures = await s.storage.jobItemFailures.forJob('relay-webhooks', 'test');
  t.deepEqual(
    failures.map((failure) => failure.itemId),
    [bad],
    'recorded as the failed item',
  );
});
