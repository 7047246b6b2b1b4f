import type { ChannelNotice, PaymentChannel, StatementLineKind } from '@payments/core';
import type { ExecutionContext, TestFn } from 'ava';
import { randomBytes } from 'node:crypto';
import type { ChannelContractSubject } from './contract-subject';

const STATEMENT_KINDS: readonly StatementLineKind[] = ['payment', 'refund', 'chargeback', 'fee'];

/** `pa_…`, as the service names attempts (the reference of an order). */
const newReference = (prefix = 'pa'): string => `${prefix}_${randomBytes(8).toString('hex')}`;

/** The error's code, by shape: the adapter's CoreError may come from another copy of the core. */
function codeOf(error: unknown): string | undefined {
  return error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

async function rejectsWith(t: ExecutionContext, run: () => unknown, code: string): Promise<void> {
  try {
    await run();
  } catch (error) {
    t.is(codeOf(error), code, `expected CoreError '${code}'`);
    return;
  }
  t.fail(`expected CoreError '${code}', but it resolved`);
}

async function placed(subject: ChannelContractSubject, reference: string): Promise<string> {
  subject.arrangeOrderAccepted(reference);
  const result = await subject.channel.placeOrder({
    mode: subject.mode,
    merchantId: subject.merchantId,
    reference,
    ...subject.payment,
    callbackUrl: 'https://payments.example/channels/x/callback/test',
    expiresAt: new Date(Date.now() + 3600_000),
  });
  if (result.outcome !== 'placed') throw new Error(`The order was not placed: ${result.failureCode}`);
  return result.channelOrderId;
}

function orderNotice(notice: ChannelNotice): Extract<ChannelNotice, { channelOrderId: string }> | undefined {
  return notice.kind === undefined || notice.kind === 'order' ? notice : undefined;
}

/** How the provider's callbacks are trusted. */
export interface ChannelContractOptions {
  /**
   * `signed` (the default): a delivery carries the provider's signature, and one altered after
   * signing is refused as `invalid_signature`. `confirmed-by-query`: the provider signs nothing
   * (Omise); the adapter fetches the object a delivery names, and a delivery that fetch
   * contradicts (it claims paid, the order is pending) is refused as `invalid_callback`.
   */
  readonly callbacks?: 'signed' | 'confirmed-by-query';
}

/**
 * The PaymentChannel port's contract (docs/channels/writing-an-adapter.md), as ava tests: what
 * every adapter must promise whatever its provider. `subject()` builds a fresh adapter and its
 * arranged provider for each test; the tests run serially (nock is process-wide).
 */
export function channelContract(
  test: TestFn,
  name: string,
  subject: () => ChannelContractSubject | Promise<ChannelContractSubject>,
  options: ChannelContractOptions = {},
): void {
  const contract = (title: string, body: (t: ExecutionContext, s: ChannelContractSubject) => Promise<unknown>): void => {
    test.serial(`${name} contract: ${title}`, async (t) => {
      const s = await subject();
      await body(t, s);
      s.verifyArranged();
    });
  };

  contract('capabilities name the channel and what it takes', async (t, s) => {
    const c: PaymentChannel['capabilities'] = s.channel.capabilities;
    t.regex(c.name, /^[a-z0-9_-]{1,32}$/);
    t.true(c.modes.includes(s.mode));
    t.true(c.methods.includes(s.payment.paymentMethod));
    t.true(c.currencies.includes(s.payment.currency));
    t.true(Number.isInteger(c.pendingTimeoutMs) && c.pendingTimeoutMs > 0);
  });

  contract('an order is placed once per reference, and answers how the payer pays', async (t, s) => {
    const reference = newReference();
    const first = await placed(s, reference);
    const again = await placed(s, reference);
    t.is(again, first, 'placing twice with one reference is one order');
  });

  contract('the confirming query answers the order as the provider records it: pending', async (t, s) => {
    const reference = newReference();
    const id = await placed(s, reference);
    const status = await s.channel.queryOrder(s.mode, id);
    t.like(status, { channelOrderId: id, reference, status: 'pending', amount: s.payment.amount, currency: s.payment.currency });
  });

  contract('the confirming query answers paid with the amount the provider recorded', async (t, s) => {
    const reference = newReference();
    const id = await placed(s, reference);
    s.arrangeOrderPaid(reference, id);
    const status = await s.channel.queryOrder(s.mode, id);
    t.like(status, { channelOrderId: id, reference, status: 'paid', amount: s.payment.amount, currency: s.payment.currency });
    t.true(Number.isInteger(status.amount));
  });

  contract('a status the adapter does not know fails loudly (channel_error), never a guess', async (t, s) => {
    const reference = newReference();
    const id = await placed(s, reference);
    s.arrangeOrderStatusUnknown(reference, id);
    await rejectsWith(t, () => s.channel.queryOrder(s.mode, id), 'channel_error');
  });

  contract('a provider that is down: placing is refused with channel_error, querying rejects with it', async (t, s) => {
    const reference = newReference();
    const id = await placed(s, reference);
    s.arrangeProviderDown();
    const result = await s.channel.placeOrder({
      mode: s.mode,
      merchantId: s.merchantId,
      reference: newReference(),
      ...s.payment,
      callbackUrl: 'https://payments.example/channels/x/callback/test',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    t.like(result, { outcome: 'refused', failureCode: 'channel_error' });
    await rejectsWith(t, () => s.channel.queryOrder(s.mode, id), 'channel_error');
  });

  if ((options.callbacks ?? 'signed') === 'signed') {
    contract('a signed callback names the order; a tampered one is refused as invalid_signature', async (t, s) => {
      const reference = newReference();
      const id = await placed(s, reference);
      const good = s.signedPaidCallback(reference, id);
      const notice = orderNotice(await s.channel.verifyCallback(s.mode, good.headers, good.rawBody));
      t.like(notice, { channelOrderId: id, reference });
      const tampered = s.tamperedPaidCallback(reference, id);
      await rejectsWith(t, () => s.channel.verifyCallback(s.mode, tampered.headers, tampered.rawBody), 'invalid_signature');
    });
  } else {
    contract('an unsigned callback the query confirms names the order; one it contradicts is refused as invalid_callback', async (t, s) => {
      const reference = newReference();
      const id = await placed(s, reference);
      const contradicted = s.tamperedPaidCallback(reference, id);
      await rejectsWith(t, () => s.channel.verifyCallback(s.mode, contradicted.headers, contradicted.rawBody), 'invalid_callback');
      const good = s.signedPaidCallback(reference, id);
      const notice = orderNotice(await s.channel.verifyCallback(s.mode, good.headers, good.rawBody));
      t.like(notice, { channelOrderId: id, reference });
    });
  }

  contract('a refund is placed on the paid order and its query answers it', async (t, s) => {
    if (!s.channel.placeRefund || !s.channel.queryRefund) return t.pass('the channel does not refund');
    const reference = newReference();
    const id = await placed(s, reference);
    const refundReference = newReference('re');
    s.arrangeRefundSucceeded(refundReference, reference, id, s.payment.amount);
    const result = await s.channel.placeRefund({
      mode: s.mode,
      reference: refundReference,
      channelOrderId: id,
      amount: s.payment.amount,
      currency: s.payment.currency,
      callbackUrl: 'https://payments.example/channels/x/callback/test',
    });
    if (result.outcome !== 'placed') return t.fail(`refund refused: ${result.failureCode}`);
    const status = await s.channel.queryRefund(s.mode, result.channelRefundId);
    t.like(status, { channelRefundId: result.channelRefundId, reference: refundReference, channelOrderId: id, status: 'succeeded', amount: s.payment.amount });
  });

  contract("a dispute's query names the order it claims against and our reference", async (t, s) => {
    if (!s.channel.queryDispute) return t.pass('the channel does not notify disputes');
    const reference = newReference();
    const id = await placed(s, reference);
    const disputeId = s.arrangeDisputeOpened(reference, id);
    const status = await s.channel.queryDispute(s.mode, disputeId);
    t.like(status, { channelDisputeId: disputeId, channelOrderId: id, reference, status: 'opened', amount: s.payment.amount, currency: s.payment.currency });
  });

  contract('the statement lists what moved, in integer minor units, and a cursor that never reads a line twice', async (t, s) => {
    if (!s.channel.statement) return t.pass('the channel keeps no statement');
    const reference = newReference();
    const id = await placed(s, reference);
    s.arrangeStatementWithPayment(reference, id);
    const page = await s.channel.statement(s.mode, { limit: 50 });
    const payment = page.lines.find((line) => line.kind === 'payment');
    t.like(payment, { reference, amount: s.payment.amount, currency: s.payment.currency });
    for (const line of page.lines) {
      t.true(STATEMENT_KINDS.includes(line.kind));
      t.true(Number.isInteger(line.amount));
    }
    t.false(page.hasMore);
    const next = await s.channel.statement(s.mode, { after: page.next, limit: 50 });
    t.deepEqual(next.lines, [], 'nothing new after the cursor');
  });
}
