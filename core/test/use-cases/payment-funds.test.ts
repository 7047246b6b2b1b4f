import test from 'ava';
import type { Dispute } from '../../src/disputes/domain/dispute.entity';
import { harness } from './harness';

/** A payment's money through its events directly (docs/ledger.md, "A payment's money"). */
async function setup() {
  const h = harness();
  const { merchant } = await h.newMerchant();
  const scope = { merchantId: merchant.id, mode: 'test' as const };
  const now = h.clock.now();
  const payment = {
    id: 'pi_funds1',
    ...scope,
    amount: 30_000,
    currency: 'THB',
    net: { amount: 29_000, currency: 'THB' },
    fee: { amount: 1_000, currency: 'THB' },
  };
  await h.funds.book(payment, now);
  const shares = () => h.storage.ledger.paymentShares(scope, payment.id);
  let n = 0;
  /** A dispute of the payment, recorded as the disputes capability records it. */
  const dispute = async (status: Dispute['status']): Promise<Dispute> => {
    n += 1;
    const opened: Dispute = {
      id: `dp_funds${n}`,
      ...scope,
      paymentIntentId: payment.id,
      status: 'opened',
      amount: payment.amount,
      currency: 'THB',
      evidence: {},
      channel: 'simulator',
      channelDisputeId: `chd_${n}`,
      dueBy: now,
      openedAt: now,
      created: now,
      updated: now,
    };
    const hold = await h.funds.disputeOpened(payment, opened.id, now);
    await h.storage.disputes.insert({ ...opened, ...(hold ? { held: hold.held, heldFrom: hold.from } : {}) });
    if (status === 'won' || status === 'lost') {
      await h.funds.disputeRuled(payment, opened, status, { amount: 1500, currency: 'THB' }, now);
      await h.storage.disputes.update({ ...opened, status });
    }
    return opened;
  };
  return { h, payment, shares, dispute, now };
}

test('a refund that fails after a loss gives its debit to the platform, even while a later dispute is open', async (t) => {
  const { h, payment, shares, dispute, now } = await setup();
  const refund = {
    id: 're_funds1',
    channel: 'simulator',
    amount: 10_000,
    currency: 'THB',
    debit: { amount: 9_667, currency: 'THB' },
    cleared: { amount: 10_000, currency: 'THB' },
  };
  await h.funds.refundMade(payment, refund, now);
  await dispute('lost');
  const later = await dispute('opened');
  t.is((await h.storage.disputes.findById(payment, later.id))?.held, undefined, 'a dispute opened after a loss holds nothing');
  t.is(await h.funds.refundFailed(payment, refund, now), 'dispute_losses');
  const left = await shares();
  t.is(left.pending + left.available + left.dispute_hold, -1500n, 'the merchant is left at minus the fee');
});

test('a refund that fails while a dispute holds the payment gives its debit to the hold, which a loss then takes', async (t) => {
  const { h, payment, shares, dispute, now } = await setup();
  const refund = {
    id: 're_funds2',
    channel: 'simulator',
    amount: 10_006,
    currency: 'THB',
    debit: { amount: 9_672, currency: 'THB' },
    cleared: { amount: 10_006, currency: 'THB' },
  };
  await h.funds.refundMade(payment, refund, now);
  const open = await dispute('opened');
  t.is(await h.funds.refundFailed(payment, refund, now), 'dispute_hold');
  t.is((await shares()).dispute_hold, 29_000n);
  t.is((await h.storage.disputes.findById(payment, open.id))?.held?.amount, 29_000, 'the dispute shows what it holds now');
  await h.funds.disputeRuled(payment, open, 'lost', { amount: 1500, currency: 'THB' }, now);
  const left = await shares();
  t.is(left.pending + left.available + left.dispute_hold, -1500n);
});

test('a payment that books nothing (every leg rounds to 0) still records the chargeback of a dispute lost before it was priced', async (t) => {
  const { h, now } = await setup();
  const { merchant } = await h.newMerchant();
  const scope = { merchantId: merchant.id, mode: 'test' as const };
  const unpriced = { id: 'pi_zero', ...scope, amount: 99, currency: 'IDR' };
  const lost = { id: 'dp_zero', amount: 99, currency: 'IDR', channel: 'simulator', channelDisputeId: 'chd_zero' };
  await h.storage.disputes.insert({
    ...lost,
    ...scope,
    paymentIntentId: unpriced.id,
    status: 'lost',
    evidence: {},
    dueBy: now,
    openedAt: now,
    created: now,
    updated: now,
  });
  await h.funds.disputeRuled(unpriced, lost, 'lost', { amount: 1500, currency: 'THB' }, now);
  await h.funds.book({ ...unpriced, net: { amount: 0, currency: 'THB' }, fee: { amount: 0, currency: 'THB' } }, now);
  const movements = await h.storage.ledger.channelMovements({ mode: 'test', channel: 'simulator' });
  t.true(
    movements.some((movement) => movement.kind === 'chargeback' && movement.reference === 'chd_zero' && movement.amount === 99n),
    JSON.stringify(movements, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
  );
});
