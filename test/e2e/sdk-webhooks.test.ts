import { randomBytes } from 'node:crypto';
import test from 'ava';
import { Payments, SignatureVerificationError } from '@payments/sdk';
import { createMerchantWithAdmin, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';
import { insertWebhookEndpoint } from './webhook-endpoint-fixture';
import { startWebhookReceiver, type RecordedWebhook, type WebhookReceiver } from './webhook-receiver';

/*
 * Real deliveries of the running service (API + worker relay) to an HTTPS receiver, verified by
 * the SDK as a merchant's handler would: v1 with the endpoint secret, v2 with the platform keys
 * the SDK fetches from GET /v1/webhook_public_keys. The platform key is every merchant's, so a
 * delivery of one merchant replayed to another's handler must not verify by v2.
 */

let environment: ServiceEnvironment;
let receiver: WebhookReceiver;
let service: RunningService;
let payments: Payments;
let merchantId: string;
let merchantKey: string;
/** Another merchant's client: the handler a captured delivery of the first is replayed to. */
let other: { id: string; testApiKey: string };
const secret = randomBytes(32).toString('hex');

test.before(async () => {
  environment = await serviceEnvironment();
  receiver = await startWebhookReceiver({ hostname: 'sdk-hooks.test.example' });
  const masterKey = randomBytes(32).toString('hex');
  const env: NodeJS.ProcessEnv = { ...environment.env, ...receiver.env, PAYMENTS_MASTER_KEY: masterKey, PAYMENTS_RATE_LIMIT_TEST: '0' };
  const merchant = await createMerchantWithAdmin(env, { name: 'SDK Hooks' });
  merchantId = merchant.id;
  merchantKey = merchant.testApiKey;
  other = await createMerchantWithAdmin(env, { name: 'SDK Hooks Elsewhere' });
  // Straight into the database, as the relay tests do: the dashboard refuses a test host with a port.
  await insertWebhookEndpoint(env, { merchantId: merchant.id, url: receiver.url, secret });
  service = await startService(env);
  payments = new Payments(merchant.testApiKey, { baseUrl: service.baseUrl });
});

test.after.always(async () => {
  await service?.stop();
  await receiver?.close();
  await environment?.cleanup();
});

/** The first delivery about this payment intent (the tests of this file run at once, each with its own intent). */
async function deliveryOf(intentId: string): Promise<RecordedWebhook | undefined> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = receiver.requests.find((request) => request.body.includes(intentId));
    if (found || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a delivery verifies with the secret (v1) and with the fetched platform keys (v2), and says why a tampered one does not', async (t) => {
  const intent = await payments.paymentIntents.create({ amount: 4321, currency: 'THB', merchant_order_id: `hooks-${Date.now()}` });
  await payments.paymentIntents.cancel(intent.id);
  const delivery = await deliveryOf(intent.id);
  if (!delivery) return t.fail('no delivery');
  const header = String(delivery.headers['x-webhook-signature']);

  const bySecret = payments.webhooks.constructEvent(delivery.rawBody, header, { secret });
  t.like(bySecret, { type: 'payment_intent.canceled', data: { id: intent.id, status: 'canceled' } });
  const byKeys = await payments.webhooks.constructEventAsync(delivery.rawBody, header);
  t.is(byKeys.id, bySecret.id);
  // From every header as Node's req.headers holds them, and by the Standard Webhooks headers alone.
  t.is((await payments.webhooks.constructEventAsync(delivery.rawBody, delivery.headers, { secret })).id, bySecret.id);
  const { 'x-webhook-signature': _own, ...standard } = delivery.headers;
  t.is((await payments.webhooks.constructEventAsync(delivery.rawBody, standard, { secret })).id, bySecret.id);
  t.is((await payments.webhooks.constructEventAsync(delivery.rawBody, standard)).id, bySecret.id);
  t.deepEqual(await payments.events.retrieve(bySecret.id), bySecret, 'the same body as GET /v1/events');

  const wrong = t.throws(
    () => {
      payments.webhooks.constructEvent(delivery.rawBody, header, { secret: 'f'.repeat(64) });
    },
    { instanceOf: SignatureVerificationError },
  );
  t.is(wrong?.reason, 'wrong_secret');
  const tampered = delivery.body.replace('"canceled"', '"succeeded"');
  const changed = await t.throwsAsync(payments.webhooks.constructEventAsync(tampered, header), { instanceOf: SignatureVerificationError });
  t.is(changed?.reason, 'body_changed');
});

test("a delivery of one merchant replayed to another merchant's handler is refused by v2 (wrong_account), while the first merchant's own verifies", async (t) => {
  const intent = await payments.paymentIntents.create({ amount: 1234, currency: 'THB', merchant_order_id: `replay-${Date.now()}` });
  await payments.paymentIntents.cancel(intent.id);
  const delivery = await deliveryOf(intent.id);
  if (!delivery) return t.fail('no delivery');
  const header = String(delivery.headers['x-webhook-signature']);
  const { 'x-webhook-signature': _own, ...standard } = delivery.headers;

  // The other merchant's handler, as its docs say: a client of its own key, no account given (it is looked up).
  const elsewhere = new Payments(other.testApiKey, { baseUrl: service.baseUrl });
  for (const headers of [header, standard]) {
    const refused = await t.throwsAsync(elsewhere.webhooks.constructEventAsync(delivery.rawBody, headers), { instanceOf: SignatureVerificationError });
    t.is(refused?.reason, 'wrong_account');
  }
  // Given its account, refused at once, synchronously too.
  const told = new Payments(other.testApiKey, { baseUrl: service.baseUrl, account: other.id });
  t.is((await t.throwsAsync(told.webhooks.constructEventAsync(delivery.rawBody, header), { instanceOf: SignatureVerificationError }))?.reason, 'wrong_account');
  const keys = await told.webhookPublicKeys.list();
  t.is(
    t.throws(
      () => {
        told.webhooks.constructEvent(delivery.rawBody, header, { publicKeys: keys });
      },
      { instanceOf: SignatureVerificationError },
    )?.reason,
    'wrong_account',
  );

  // The first merchant's own handler verifies it by v2: looked up (a fresh client) or given.
  const own = new Payments(merchantKey, { baseUrl: service.baseUrl });
  t.like(await own.webhooks.constructEventAsync(delivery.rawBody, header), {
    id: delivery.headers['webhook-id'],
    data: { merchant: merchantId, mode: 'test' },
  });
  const ownTold = new Payments(merchantKey, { baseUrl: service.baseUrl, account: merchantId });
  t.is(ownTold.webhooks.constructEvent(delivery.rawBody, header, { publicKeys: keys }).data.id, intent.id);
});
