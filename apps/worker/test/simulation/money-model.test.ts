import test from 'ava';
import fc from 'fast-check';
import { expectedMerchantMoney, MoneyModel, mulDivHalfEven, type MoneyFact } from './money-model';

/** The model of the money (./money-model.ts) on its own: its arithmetic, histories worked by hand, and its own invariants. */

const M = 'mch_a';
const FEE = 1500n;
const base: MoneyFact[] = [
  { kind: 'merchant', merchant: M, mode: 'test', currency: 'THB' },
  { kind: 'payment', payment: 'pi_1', merchant: M, mode: 'test', amount: 30_000, currency: 'THB' },
];
const priced: MoneyFact = { kind: 'priced', payment: 'pi_1', net: 29_505, fee: 495, currency: 'THB' };
const account = (name: string): string => `p:test:${name}:THB`;

test('mulDivHalfEven rounds half to even, exactly past 2^53', (t) => {
  t.is(mulDivHalfEven(1n, 3n, 2n), 2n);
  t.is(mulDivHalfEven(5n, 1n, 2n), 2n);
  t.is(mulDivHalfEven(7n, 1n, 2n), 4n);
  t.is(mulDivHalfEven(1n, 1n, 3n), 0n);
  t.is(mulDivHalfEven(2n, 1n, 3n), 1n);
  t.is(mulDivHalfEven(9007199254740991n, 9007199254740991n, 9007199254740991n), 9007199254740991n);
});

test('a refund pending when a dispute opens, failing while it is open, then the dispute lost: the merchant is left at minus the fee', (t) => {
  const money = expectedMerchantMoney([
    ...base,
    priced,
    { kind: 'refund_made', refund: 're_1', payment: 'pi_1', amount: 10_006 },
    { kind: 'dispute_opened', dispute: 'dp_1', payment: 'pi_1', amount: 30_000 },
    { kind: 'refund_failed', refund: 're_1' },
    { kind: 'dispute_lost', dispute: 'dp_1' },
  ]);
  t.deepEqual(money.merchant(M, 'test', 'THB'), { pending: 0n, available: -FEE, dispute_hold: 0n });
  t.is(money.accounts.get(account('channel_clearing')), undefined, 'the channel took back what it collected');
  t.is(money.accounts.get(account('fee_revenue')), 495n + FEE);
  t.is(money.accounts.get(account('refunded_fees')), undefined);
  t.is(money.accounts.get(account('dispute_losses')), -495n, 'the fee share the chargeback took back is the platform’s cost');
});

test('a refund failing after the loss gives its debit to the platform', (t) => {
  const money = expectedMerchantMoney([
    ...base,
    priced,
    { kind: 'released', payment: 'pi_1' },
    { kind: 'refund_made', refund: 're_1', payment: 'pi_1', amount: 10_000 },
    { kind: 'dispute_opened', dispute: 'dp_1', payment: 'pi_1', amount: 30_000 },
    { kind: 'dispute_lost', dispute: 'dp_1' },
    { kind: 'refund_failed', refund: 're_1' },
  ]);
  t.deepEqual(money.merchant(M, 'test', 'THB'), { pending: 0n, available: -FEE, dispute_hold: 0n });
  // debit 9835, channel 10000: the refund's legs are reversed and the debit is the platform's.
  t.is(money.accounts.get(account('dispute_losses')), -(30_000n - (29_505n - 9_835n)) + 9_835n);
});

test('refunded whole in three parts, the debits make the net and the channel the gross, to the unit', (t) => {
  const model = new MoneyModel();
  for (const fact of [...base, { ...priced, net: 29_504, fee: 496 } as MoneyFact]) model.apply(fact);
  for (const [index, amount] of [10_001, 9_999, 10_000].entries()) model.apply({ kind: 'refund_made', refund: `re_${index}`, payment: 'pi_1', amount });
  t.deepEqual(model.merchantMoney(M, 'test', 'THB'), { pending: 0n, available: 0n, dispute_hold: 0n });
  t.is(model.balance(account('channel_clearing')), 0n);
  t.is(model.balance(account('refunded_fees')), -496n);
  t.deepEqual(model.refundVerdict('pi_1', 1), { status: 409, code: 'refund_exceeds_remaining' });
});

test('a dispute lost before the payment is priced takes its net at the price; a second one after a win holds it again', (t) => {
  const lost = expectedMerchantMoney([
    ...base,
    { kind: 'dispute_opened', dispute: 'dp_1', payment: 'pi_1', amount: 30_000 },
    { kind: 'dispute_lost', dispute: 'dp_1' },
    priced,
  ]);
  t.deepEqual(lost.merchant(M, 'test', 'THB'), { pending: 0n, available: -FEE, dispute_hold: 0n });
  t.is(lost.accounts.get(account('channel_clearing')), undefined);

  const twice = expectedMerchantMoney([
    ...base,
    priced,
    { kind: 'dispute_opened', dispute: 'dp_1', payment: 'pi_1', amount: 30_000 },
    { kind: 'dispute_won', dispute: 'dp_1' },
    { kind: 'released', payment: 'pi_1' },
    { kind: 'settlement_created', settlement: 'st_1', merchant: M, mode: 'test', amount: 29_505, currency: 'THB' },
    { kind: 'settlement_paid', settlement: 'st_1' },
    { kind: 'dispute_opened', dispute: 'dp_2', payment: 'pi_1', amount: 30_000 },
  ]);
  t.deepEqual(twice.merchant(M, 'test', 'THB'), { pending: 0n, available: -29_505n, dispute_hold: 29_505n }, 'paid out, then held again');
});

test('the rules refuse refunds while a dispute is open, after a loss, before the price and past the remainder', (t) => {
  const model = new MoneyModel();
  for (const fact of base) model.apply(fact);
  t.deepEqual(model.refundVerdict('pi_1'), { status: 409, code: 'invalid_state_transition' });
  model.apply(priced);
  t.deepEqual(model.refundVerdict('pi_1', 30_001), { status: 409, code: 'refund_exceeds_remaining' });
  t.deepEqual(model.refundVerdict('pi_1'), { status: 201, amount: 30_000n });
  model.apply({ kind: 'dispute_opened', dispute: 'dp_1', payment: 'pi_1', amount: 30_000 });
  t.deepEqual(model.refundVerdict('pi_1', 1), { status: 409, code: 'payment_disputed' });
  model.apply({ kind: 'dispute_lost', dispute: 'dp_1' });
  t.deepEqual(model.refundVerdict('pi_1', 1), { status: 409, code: 'refund_exceeds_remaining' });
});

/** One payment's random history, each act taken only where the rules allow it. */
type Act = 'refund' | 'fail' | 'succeed' | 'open' | 'won' | 'lost' | 'release' | 'settle' | 'paid' | 'payout_failed' | 'price';
const acts = fc.array(
  fc.tuple(
    fc.constantFrom<Act>('refund', 'fail', 'succeed', 'open', 'won', 'lost', 'release', 'settle', 'paid', 'payout_failed', 'price'),
    fc.nat({ max: 40_000 }),
  ),
  { maxLength: 25 },
);

test('whatever the order: every account sums to zero, holds never go negative, and a lost payment leaves the merchant at minus its fees', (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 9_007_199_254_740_991 }), fc.nat({ max: 10_000 }), acts, (amount, feeBps, history) => {
      const model = new MoneyModel();
      const gross = BigInt(amount);
      const fee = (gross * BigInt(feeBps)) / 10_000n;
      model.apply({ kind: 'merchant', merchant: M, mode: 'test', currency: 'THB' });
      model.apply({ kind: 'payment', payment: 'pi_1', merchant: M, mode: 'test', amount, currency: 'THB' });
      const refunds: Array<{ id: string; pending: boolean }> = [];
      const settlements: Array<{ id: string; amount: bigint; open: boolean }> = [];
      let [opened, losses, settled] = [0, 0, 0n];
      let open: string | undefined;
      for (const [act, size] of history) {
        const available = model.merchantMoney(M, 'test', 'THB').available;
        if (act === 'price' && !model.isPriced('pi_1')) model.apply({ kind: 'priced', payment: 'pi_1', net: gross - fee, fee, currency: 'THB' });
        if (act === 'release' && model.isPriced('pi_1')) model.apply({ kind: 'released', payment: 'pi_1' });
        if (act === 'refund' && model.refundVerdict('pi_1', size + 1).status === 201) {
          refunds.push({ id: `re_${refunds.length}`, pending: true });
          model.apply({ kind: 'refund_made', refund: refunds.at(-1)!.id, payment: 'pi_1', amount: size + 1 });
        }
        const pending = refunds.find((refund) => refund.pending);
        if ((act === 'fail' || act === 'succeed') && pending) {
          pending.pending = false;
          model.apply({ kind: act === 'fail' ? 'refund_failed' : 'refund_succeeded', refund: pending.id });
        }
        if (act === 'open' && !open) {
          open = `dp_${(opened += 1)}`;
          model.apply({ kind: 'dispute_opened', dispute: open, payment: 'pi_1', amount });
        }
        if ((act === 'won' || act === 'lost') && open) {
          model.apply({ kind: act === 'won' ? 'dispute_won' : 'dispute_lost', dispute: open });
          if (act === 'lost') losses += 1;
          open = undefined;
        }
        if (act === 'settle' && available > 0n) {
          settlements.push({ id: `st_${settlements.length}`, amount: available, open: true });
          model.apply({ kind: 'settlement_created', settlement: settlements.at(-1)!.id, merchant: M, mode: 'test', amount: available, currency: 'THB' });
        }
        const made = settlements.find((settlement) => settlement.open);
        if ((act === 'paid' || act === 'payout_failed') && made) {
          made.open = false;
          model.apply({ kind: act === 'paid' ? 'settlement_paid' : 'settlement_failed', settlement: made.id });
          if (act === 'paid') settled += made.amount;
        }
      }
      const total = [...model.accounts().values()].reduce((sum, value) => sum + value, 0n);
      const money = model.merchantMoney(M, 'test', 'THB');
      const inTransit = settlements.filter((settlement) => settlement.open).reduce((sum, settlement) => sum + settlement.amount, 0n);
      const holds = money.pending + money.available + money.dispute_hold + inTransit + settled;
      const lostAndDone = losses > 0 && !refunds.some((refund) => refund.pending) && model.isPriced('pi_1');
      return total === 0n && money.pending >= 0n && money.dispute_hold >= 0n && (!lostAndDone || holds === -FEE * BigInt(losses));
    }),
    { numRuns: 300 },
  );
  t.pass();
});
