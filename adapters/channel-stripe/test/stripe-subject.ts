import { assertNoStrayRequests, isolateNetwork, type ChannelContractSubject } from '@payments/channel-kit';
import Stripe from 'stripe';
import { StripePaymentChannel } from '../src';
import { FakeStripeAccount, MemoryCredentialStore } from './fake-stripe';

export const MERCHANT = 'acct_contract';
export const SECRET_KEY = 'sk_test_contract0000000000000000';
export const WEBHOOK_SECRET = 'whsec_contract000000000000000000';

/** The SDK's own client, without retries (a retried 500 would only slow the tests) and pointed at nock. */
export const testClient = (secretKey: string): Stripe => new Stripe(secretKey, { maxNetworkRetries: 0, telemetry: false });

export interface StripeSubject extends ChannelContractSubject {
  readonly account: FakeStripeAccount;
  readonly credentials: MemoryCredentialStore;
  readonly stripeChannel: StripePaymentChannel;
}

/** The stripe channel over one fake Stripe account, as the contract suite arranges it. */
export function stripeSubject(): StripeSubject {
  isolateNetwork();
  const credentials = new MemoryCredentialStore();
  credentials.set(MERCHANT, 'test', { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET, billing_email: 'payer@merchant.example' });
  const account = new FakeStripeAccount(SECRET_KEY);
  account.install();
  const channel = new StripePaymentChannel({ credentials, client: testClient });
  const signed = (reference: string, channelOrderId: string, tamper: boolean) => {
    const intent = account.intents.get(channelOrderId.split(':')[1] ?? '') ?? account.intentOf(reference);
    const payload = JSON.stringify(account.event('payment_intent.succeeded', { ...intent, status: 'succeeded' }));
    const header = testClient(SECRET_KEY).webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return { headers: { 'stripe-signature': header }, rawBody: tamper ? payload.replace('"succeeded"', '"processing"') : payload };
  };
  return {
    channel,
    stripeChannel: channel,
    account,
    credentials,
    mode: 'test',
    merchantId: MERCHANT,
    payment: { amount: 125_00, currency: 'THB', paymentMethod: 'promptpay' },
    arrangeOrderAccepted: () => undefined,
    arrangeOrderPaid: (reference) => void account.pay(reference),
    arrangeOrderStatusUnknown: (reference) => {
      const intent = account.intentOf(reference);
      account.intents.set(intent.id, { ...intent, status: 'requires_capture' });
    },
    arrangeProviderDown: () => {
      account.down = true;
    },
    signedPaidCallback: (reference, id) => signed(reference, id, false),
    tamperedPaidCallback: (reference, id) => signed(reference, id, true),
    arrangeRefundSucceeded: (_reference, orderReference) => void account.pay(orderReference),
    arrangeDisputeOpened: (orderReference) => {
      account.pay(orderReference);
      return `${MERCHANT}:${account.openDispute(orderReference).id}`;
    },
    arrangeStatementWithPayment: (reference) => void account.pay(reference),
    verifyArranged: () => {
      // The fake's answers are persisted: what must hold is that the adapter asked nothing Stripe has no answer for.
      assertNoStrayRequests();
    },
  };
}
