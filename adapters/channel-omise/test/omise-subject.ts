import { assertNoStrayRequests, isolateNetwork, type ChannelContractSubject } from '@payments/channel-kit';
import { OmisePaymentChannel } from '../src';
import { FakeOmiseAccount, MemoryCredentialStore } from './fake-omise';

export const MERCHANT = 'mch_contract';
export const SECRET_KEY = 'skey_test_contract00000000000';

export interface OmiseSubject extends ChannelContractSubject {
  readonly account: FakeOmiseAccount;
  readonly credentials: MemoryCredentialStore;
  readonly omiseChannel: OmisePaymentChannel;
}

/** The omise channel over one fake Omise account, as the contract suite arranges it (callbacks confirmed by query). */
export function omiseSubject(): OmiseSubject {
  isolateNetwork();
  const credentials = new MemoryCredentialStore();
  credentials.set(MERCHANT, 'test', { secret_key: SECRET_KEY });
  const account = new FakeOmiseAccount(SECRET_KEY);
  account.install();
  const channel = new OmisePaymentChannel({ credentials, timeoutMs: 5_000 });
  const delivery = (reference: string) => {
    const charge = account.chargeOf(reference);
    return { headers: {}, rawBody: JSON.stringify(account.event('charge.complete', { ...charge, status: 'successful' })) };
  };
  return {
    channel,
    omiseChannel: channel,
    account,
    credentials,
    mode: 'test',
    merchantId: MERCHANT,
    payment: { amount: 125_00, currency: 'THB', paymentMethod: 'promptpay' },
    arrangeOrderAccepted: () => undefined,
    arrangeOrderPaid: (reference) => void account.pay(reference),
    arrangeOrderStatusUnknown: (reference) => {
      const charge = account.chargeOf(reference);
      account.unknownStatuses.set(charge.id, 'teleported');
    },
    arrangeProviderDown: () => {
      account.down = true;
    },
    // Unsigned: the paid delivery is confirmed once the charge really is paid.
    signedPaidCallback: (reference) => {
      account.pay(reference);
      return delivery(reference);
    },
    // The same claim while the charge is still pending: the fetch contradicts it.
    tamperedPaidCallback: (reference) => delivery(reference),
    arrangeRefundSucceeded: (_reference, orderReference) => void account.pay(orderReference),
    arrangeDisputeOpened: (orderReference) => {
      account.pay(orderReference);
      return `${MERCHANT}:${account.openDispute(orderReference).id}`;
    },
    arrangeStatementWithPayment: (reference) => void account.pay(reference),
    verifyArranged: () => {
      // The fake's answers are persisted: what must hold is that the adapter asked nothing Omise has no answer for.
      assertNoStrayRequests();
    },
  };
}
