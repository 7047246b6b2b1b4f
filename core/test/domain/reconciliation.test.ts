import test from 'ava';
import { duplicatePaymentPosting, paymentPosting } from '../../src/ledger/domain/ledger-postings';
import { ledgerTransaction } from '../../src/ledger/domain/ledger';
import { CoreError } from '../../src/common/core-error';
import {
  judge,
  matchKey,
  matchStatement,
  type JudgeInput,
  type KeyTotal,
  type Mismatch,
  type ReconciliationItem,
} from '../../src/reconciliation/domain/reconciliation';

const T0 = new Date('2026-11-01T00:00:00Z');
const HOUR = 3_600_000;
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const total = (kind: KeyTotal['kind'], reference: string, amount: number, currency = 'THB'): KeyTotal => ({
  kind,
  reference,
  currency,
  amount: BigInt(amount),
});
const thb = (amount: number) => [{ amount: BigInt(amount), currency: 'THB' }];

test('a statement that says what the ledger says has no mismatch, whatever the order and however each side is split', (t) => {
  const lines = [total('payment', 'pa_1', 10_000), total('refund', 're_1', 3_000), total('chargeback', 'sdp_1', 7_000), total('payment', 'pa_2', 501)];
  const movements = [
    total('chargeback', 'sdp_1', 7_000),
    total('payment', 'pa_2', 501),
    total('refund', 're_1', 3_000),
    total('payment', 'pa_1', 10_000),
    // A refund that failed: booked when made, reversed when it failed; the channel never listed it.
    total('refund', 're_2', 2_000),
    total('refund', 're_2', -2_000),
  ];
  t.deepEqual(matchStatement(lines, movements), []);
  // Two lines of one key (a correction) add up like two movements.
  t.deepEqual(matchStatement([total('payment', 'pa_3', 600), total('payment', 'pa_3', 400)], [total('payment', 'pa_3', 1_000)]), []);
});

test('each side that lacks the other, and each amount or currency that differs, is a mismatch with both sides and its reason', (t) => {
  const mismatches = matchStatement(
    [total('payment', 'pa_lost', 10_000), total('payment', 'pa_short', 9_000), total('refund', 're_cur', 500, 'SGD'), total('fee', 'pa_x', 15)],
    [
      total('payment', 'pa_short', 10_000),
      total('refund', 're_cur', 500, 'THB'),
      { ...total('payment', 'pa_unlisted', 2_500), merchantId: 'mch_A' },
      // Reversed once too often: the ledger says the channel took 700 back.
      total('refund', 're_twice', 700),
      total('refund', 're_twice', -700),
      total('refund', 're_twice', -700),
    ],
  );
  t.deepEqual(mismatches, [
    { kind: 'fee', reference: 'pa_x', reason: 'missing_in_ledger', statement: thb(15), ledger: [] },
    { kind: 'payment', reference: 'pa_lost', reason: 'missing_in_ledger', statement: thb(10_000), ledger: [] },
    { kind: 'payment', reference: 'pa_short', reason: 'amount_differs', statement: thb(9_000), ledger: thb(10_000) },
    { kind: 'payment', reference: 'pa_unlisted', reason: 'missing_in_statement', statement: [], ledger: thb(2_500), merchantId: 'mch_A' },
    { kind: 'refund', reference: 're_cur', reason: 'amount_differs', statement: [{ amount: 500n, currency: 'SGD' }], ledger: thb(500) },
    { kind: 'refund', reference: 're_twice', reason: 'missing_in_statement', statement: [], ledger: thb(-700) },
  ]);
});

test('sums are exact past 2^53 − 1', (t) => {
  const max = Number.MAX_SAFE_INTEGER;
  t.deepEqual(
    matchStatement([total('payment', 'pa_big', max), total('payment', 'pa_big', max)], [total('payment', 'pa_big', max), total('payment', 'pa_big', max)]),
    [],
  );
  const [mismatch] = matchStatement(
    [total('payment', 'pa_big', max), total('payment', 'pa_big', max)],
    [total('payment', 'pa_big', max), total('payment', 'pa_big', max - 1)],
  );
  t.deepEqual(mismatch?.statement, [{ amount: 2n * BigInt(max), currency: 'THB' }]);
});

/** judge with a channel, mode, ids and a grace of one hour; `checked` defaults to the mismatches' keys and the items'. */
function judged(input: Partial<JudgeInput> & Pick<JudgeInput, 'now'>) {
  let n = 0;
  const mismatches = input.mismatches ?? [];
  const items = input.items ?? [];
  return judge({
    channel: 'simulator',
    mode: 'test',
    checked: input.checked ?? new Set([...mismatches, ...items].map(matchKey)),
    mismatches,
    items,
    inFlight: input.inFlight ?? new Map(),
    graceMs: input.graceMs ?? HOUR,
    newId: () => `rcb_${(n += 1)}`,
    now: input.now,
  });
}

const lost: Mismatch = { kind: 'payment', reference: 'pa_1', reason: 'missing_in_ledger', statement: thb(10_000), ledger: [] };

test('a mismatch waits out the grace from when it was first seen, then opens as a break; one that matches meanwhile is forgotten', (t) => {
  const first = judged({ mismatches: [lost], now: T0 });
  t.deepEqual(first.opened, []);
  t.like(first.save, [{ id: 'rcb_1', channel: 'simulator', mode: 'test', kind: 'payment', reference: 'pa_1', status: 'waiting', firstSeenAt: T0 }]);
  const waiting = first.save[0];

  const later = judged({ mismatches: [lost], items: [waiting], now: at(HOUR - 1) });
  t.deepEqual(later, { save: [], remove: [], opened: [], cleared: [] }, 'nothing changed: nothing written');

  const due = judged({ mismatches: [lost], items: [waiting], now: at(HOUR) });
  t.like(due.opened, [{ id: 'rcb_1', status: 'open', reason: 'missing_in_ledger', firstSeenAt: T0, openedAt: at(HOUR) }]);

  const matched = judged({ checked: new Set([matchKey(lost)]), items: [waiting], now: at(10) });
  t.deepEqual(matched.remove, ['rcb_1']);
  t.deepEqual(matched.cleared, []);
});

test('a grace of 0 opens a break at first sight', (t) => {
  t.like(judged({ mismatches: [lost], now: T0, graceMs: 0 }).opened, [{ status: 'open', openedAt: T0 }]);
});

test('while our records say the money is on its way the mismatch waits, and its grace starts when it stops being so', (t) => {
  const pending: Mismatch = { kind: 'refund', reference: 're_1', reason: 'missing_in_statement', statement: [], ledger: thb(3_000) };
  const inFlight = new Map([[matchKey(pending), 'refund_pending']]);
  const day1 = judged({ mismatches: [pending], inFlight, now: T0 });
  t.like(day1.save, [{ status: 'waiting', detail: 'refund_pending', firstSeenAt: T0 }]);
  // Days later the refund is still pending at the channel: still waiting, never a break.
  const day3 = judged({ mismatches: [pending], items: day1.save, inFlight, now: at(48 * HOUR) });
  t.deepEqual(day3.opened, []);
  t.like(day3.save, [{ status: 'waiting', detail: 'refund_pending', firstSeenAt: at(48 * HOUR) }]);
  // It succeeded on our side but the statement does not list it: the grace runs from now on.
  const succeeded = judged({ mismatches: [pending], items: day3.save, now: at(49 * HOUR) });
  t.deepEqual(succeeded.opened, []);
  t.is(succeeded.save[0]?.detail, undefined);
  t.deepEqual(succeeded.save[0]?.firstSeenAt, at(49 * HOUR));
  t.like(judged({ mismatches: [pending], items: succeeded.save, now: at(50 * HOUR) }).opened, [{ status: 'open', reason: 'missing_in_statement' }]);
});

test('an open break stays open while it mismatches (its sides kept up to date) and is cleared, not forgotten, once its key matches', (t) => {
  const open: ReconciliationItem = {
    id: 'rcb_9',
    channel: 'simulator',
    mode: 'test',
    ...lost,
    status: 'open',
    firstSeenAt: T0,
    openedAt: at(HOUR),
    updated: at(HOUR),
  };
  t.deepEqual(judged({ mismatches: [lost], items: [open], now: at(5 * HOUR) }).save, [], 'unchanged: not rewritten');
  // On its way or not, an open break stays open.
  const short: Mismatch = { ...lost, reason: 'amount_differs', ledger: thb(9_000) };
  const changed = judged({ mismatches: [short], items: [open], inFlight: new Map([[matchKey(lost), 'payment_not_priced']]), now: at(6 * HOUR) });
  t.like(changed.save, [{ id: 'rcb_9', status: 'open', reason: 'amount_differs', ledger: thb(9_000), openedAt: at(HOUR), updated: at(6 * HOUR) }]);
  const cleared = judged({ checked: new Set([matchKey(lost)]), items: changed.save, now: at(7 * HOUR) });
  t.like(cleared.cleared, [{ id: 'rcb_9', status: 'cleared', clearedAt: at(7 * HOUR), openedAt: at(HOUR), reason: 'amount_differs' }]);
  t.deepEqual(cleared.save, cleared.cleared);
  t.deepEqual(cleared.remove, []);
});

test('the payment posting carries what the channel collected when told, and a duplicate payment its attempt', (t) => {
  const payment = { id: 'pi_1', merchantId: 'mch_A', mode: 'test' as const, net: { amount: 9_835, currency: 'THB' }, fee: { amount: 165, currency: 'THB' } };
  t.is(paymentPosting(payment, T0).channelMovement, undefined);
  const paid = paymentPosting(payment, T0, { channel: 'simulator', attemptId: 'pa_1', amount: { amount: 300, currency: 'SGD' } });
  t.deepEqual(paid.channelMovement, { channel: 'simulator', kind: 'payment', reference: 'pa_1', amount: 300, currency: 'SGD' });
  // Every leg rounds to zero (1 IDR to a THB merchant): nothing to book, but the channel's 1 IDR is kept.
  const zero = paymentPosting({ ...payment, net: { amount: 0, currency: 'THB' }, fee: { amount: 0, currency: 'THB' } }, T0, {
    channel: 'simulator',
    attemptId: 'pa_2',
    amount: { amount: 1, currency: 'IDR' },
  });
  t.deepEqual(zero.entries, []);
  t.like(zero.channelMovement, { reference: 'pa_2', amount: 1, currency: 'IDR' });
  const duplicate = duplicatePaymentPosting({ attemptId: 'pa_3', scope: payment, amount: { amount: 10_000, currency: 'THB' }, channel: 'rest' }, T0);
  t.deepEqual(duplicate.channelMovement, { channel: 'rest', kind: 'payment', reference: 'pa_3', amount: 10_000, currency: 'THB' });
  t.is(duplicate.cause, 'duplicate_payment:pa_3');
  t.is(duplicatePaymentPosting({ attemptId: 'pa_3', scope: payment, amount: { amount: 10_000, currency: 'THB' } }, T0).channelMovement, undefined);
  // A movement of nothing is dropped; one that is not an exact integer is a bug.
  const base = { causeType: 'refund_failed' as const, causeId: 're_1', merchantId: 'mch_A', mode: 'test' as const, created: T0, entries: [] };
  t.is(
    ledgerTransaction({ ...base, channelMovement: { channel: 'simulator', kind: 'refund', reference: 're_1', amount: 0, currency: 'THB' } }).channelMovement,
    undefined,
  );
  const error = t.throws(() =>
    ledgerTransaction({ ...base, channelMovement: { channel: 'simulator', kind: 'refund', reference: 're_1', amount: 0.5, currency: 'THB' } }),
  );
  t.true(error instanceof CoreError);
});
