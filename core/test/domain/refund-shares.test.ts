import test from 'ava';
import fc from 'fast-check';
import { MAX_AMOUNT, mulDivHalfEven } from '../../src/common/money';
import { refundShares } from '../../src/funds/domain/payment-money';

test('x × net / amount rounds half-even, exactly past 2^53', (t) => {
  t.is(mulDivHalfEven(1, 1, 2), 0, '0.5 goes to the even 0');
  t.is(mulDivHalfEven(3, 1, 2), 2, '1.5 goes to the even 2');
  t.is(mulDivHalfEven(5, 1, 2), 2, '2.5 goes to the even 2');
  t.is(mulDivHalfEven(7, 1, 4), 2, '1.75 rounds up');
  t.is(mulDivHalfEven(MAX_AMOUNT, MAX_AMOUNT - 1, MAX_AMOUNT), MAX_AMOUNT - 1, 'the product passes 2^53 and stays exact');
  t.is(mulDivHalfEven(3_333, 9_835, 10_000), 3_278);
});

test('the debits and clearings of any split of an intent into refunds add up to the net and the gross exactly, each within one unit of its share', (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: MAX_AMOUNT }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }),
      (amount, netShare, cuts) => {
        const net = { amount: Math.floor(amount * netShare), currency: 'THB' };
        const payment = {
          id: 'pi_1',
          merchantId: 'mch_1',
          mode: 'test' as const,
          amount,
          currency: 'THB',
          net,
          fee: { amount: amount - net.amount, currency: 'THB' },
        };
        let cleared = 0;
        // Cut points of the amount, in order: the refunds are the pieces between them.
        const points = [...new Set([0, ...cuts.map((cut) => Math.floor(cut * amount)), amount])].sort((a, b) => a - b);
        let refunded = 0;
        let debited = 0;
        for (let index = 1; index < points.length; index += 1) {
          const piece = points[index] - points[index - 1];
          if (piece === 0) continue;
          const shares = refundShares(payment, piece, { refunded, debited, cleared });
          const debit = shares.debit.amount;
          if (debit < 0 || !Number.isSafeInteger(debit)) return false;
          if (shares.cleared.amount !== piece) return false;
          cleared += shares.cleared.amount;
          if (Math.abs(debit - Number((BigInt(piece) * BigInt(net.amount)) / BigInt(amount))) > 1) return false;
          refunded += piece;
          debited += debit;
        }
        return refunded === amount && debited === net.amount && cleared === amount;
      },
    ),
    { numRuns: 500 },
  );
  t.pass();
});
