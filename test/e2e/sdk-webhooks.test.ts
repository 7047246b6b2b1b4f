import { randomBytes } from 'node:crypto';
import test from 'ava';
import { Payments, SignatureVerificationError } from '@payments/sdk';
import { createMerchantWithAdmin, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';
import { insertWebhookEndpoint } from './webhook-endpoint-fixture';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

/*
 * Real deliveries of the running service (API + worker relay) to an HTTPS receiver, verified by
 * the SDK as a merchant's handler would: v1 with the endpoint secret, v2 with the platform keys
 * the SDK fetches from GET /v1/webhook_public_keys.
 */

let environment: ServiceEnvironment;
let receiver: WebhookReceiver;
let service: RunningService;
let payments: Payments;
const secret = randomBytes(32).toString('hex');

test.before(async () => {
  environment = await serviceEnvironment();
  receiver = await startWebhookReceiver({ hostname: 'sdk-hooks.test.example' });
  const masterKey = randomBytes(32).toString('hex');
  const env: NodeJS.ProcessEnv = { ...environment.env, ...receiver.env, PAYMENTS_MASTER_KEY: masterKey, PAYMENTS_RATE_LIMIT_TEST: '0' };
  const merchant = await createMerchantWithAdmin(env, { name: 'SDK Hooks' });
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

test('a delivery verifies with the secret (v1) and with the fetched platform keys (v2), and says why a tampered one does not', async (t) => {
  const intent = await payments.paymentIntents.create({ amount: 4321, currency: 'THB', merchant_order_id: `hooks-${Date.now()}` });
  await payments.paymentIntents.cancel(intent.id);
  const [delivery] = await receiver.waitFor(1, 30_000);
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
