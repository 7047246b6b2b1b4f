import test from 'ava';
import {
  BALANCE_TRANSACTION_TYPES,
  balanceTransactionOf,
  balanceTransactionSeq,
  balanceTransactionType,
  matchesBalanceTransactionFilter,
  TYPED_CAUSES,
  type BalanceTransaction,
  type JournalRecord,
} from '../../src/ledger/domain/balance-transaction';
import {
  ledgerTransaction,
  merchantAccount,
  platformAccount,
  type LedgerCauseType,
  type LedgerTransaction,
  type MerchantBucket,
  type PlatformAccountName,
} from '../../src/ledger/domain/ledger';
import {
  duplicatePaymentPosting,
  paymentMovePosting,
  paymentPosting,
  settlementCreatedPosting,
  settlementFailedPosting,
  settlementPaidPosting,
} from '../../src/ledger/domain/ledger-postings';
import { CoreError } from '../../src/common/core-error';

const NOW = new Date('2026-11-01T00:00:00Z');
const LATER = new Date('2026-11-02T00:00:00Z');
const scope = { merchantId: 'mch_A', mode: 'test' as const };
const thb = (amount: number) => ({ amount, currency: 'THB' });
const FEE = 1_500;
/** A payment of 10,000.00 THB: fee 165.00, net 9,835.00 (minor units). */
const payment = { id: 'pi_1', ...scope, net: thb(983_500), fee: thb(16_500) };

/** The record storage would read for `tx`, with the payment and refund it concerns. */
function record(tx: LedgerTransaction, extra: Partial<JournalRecord> = {}, seq = 7): JournalRecord {
  return {
    seq,
    causeType: tx.causeType,
    causeId: tx.causeId,
    ...(tx.paymentIntentId === undefined ? {} : { paymentIntentId: tx.paymentIntentId }),
    created: tx.created,
    entries: tx.entries,
    ...extra,
  };
}

function lineOf(tx: LedgerTransaction, extra: Partial<JournalRecord> = {}): BalanceTransaction {
  const line = balanceTransactionOf(scope, record(tx, extra));
  if (!line) throw new Error(`${tx.cause} made no line`);
  return line;
}

const move = (
  causeType: LedgerCauseType,
  causeId: string,
  merchant: Partial<Record<MerchantBucket, number>>,
  platform: Partial<Record<PlatformAccountName, number>> = {},
  at = NOW,
) => paymentMovePosting({ causeType, causeId, scope, paymentIntentId: 'pi_1', currency: 'THB', merchant, platform }, at);

/** What every line keeps, whatever its type. */
function adds(t: { is: (a: unknown, b: unknown, message?: string) => void }, line: BalanceTransaction): void {
  t.is(line.amount - line.fee, line.net, `${line.type}: amount − fee = net`);
  t.is(line.moves.pending + line.moves.available + line.moves.dispute_hold, line.net, `${line.type}: the moves sum to the net`);
}

test('a payment: its gross, its fee and its net in pending; available when released, else when due, else unknown', (t) => {
  const tx = paymentPosting(payment, NOW);
  const line = lineOf(tx);
  t.like(line, {
    id: 'txn_7',
    seq: 7,
    type: 'payment',
    amount: 1_000_000,
    fee: 16_500,
    net: 983_500,
    currency: 'THB',
    source: 'pi_1',
    paymentIntentId: 'pi_1',
  });
  t.deepEqual(line.moves, { pending: 983_500, available: 0, dispute_hold: 0 });
  t.is(line.availableOn, undefined, 'no release scheduled');
  t.is(line.settlementId, undefined);
  t.is(line.exchange, undefined);
  adds(t, line);
  const paid = { amount: 1_000_000, currency: 'THB' };
  t.deepEqual(lineOf(tx, { payment: { ...paid, availableAt: LATER } }).availableOn, LATER);
  t.deepEqual(lineOf(tx, { payment: { ...paid, availableAt: LATER, releasedAt: NOW } }).availableOn, NOW, 'released: from its release');
});

test('a payment in another currency carries what the payer paid and the locked rate; one in the settlement currency none', (t) => {
  const line = lineOf(paymentPosting(payment, NOW), { payment: { amount: 30_888, currency: 'USD', rate: '32.3773' } });
  t.deepEqual(line.exchange, { amount: 30_888, currency: 'USD', rate: '32.3773' });
  t.is(lineOf(paymentPosting(payment, NOW), { payment: { amount: 1_000_000, currency: 'THB', rate: '1' } }).exchange, undefined);
});

test('a release moves pending to available: net 0, available at once', (t) => {
  const line = lineOf(move('release', 'pi_1', { pending: -983_500, available: 983_500 }), { payment: { amount: 1_000_000, currency: 'THB', releasedAt: NOW } });
  t.like(line, { type: 'release', amount: 0, fee: 0, net: 0, source: 'pi_1' });
  t.deepEqual(line.moves, { pending: -983_500, available: 983_500, dispute_hold: 0 });
  t.deepEqual(line.availableOn, NOW);
  adds(t, line);
});

test('a refund: its whole amount negative, the fee share given back negative, the merchant’s debit as net; its reversal the opposite', (t) => {
  // 2,000.00 THB refunded of the payment: the merchant gives back 1,967.00, the platform 33.00 of fee.
  const refund = move('refund', 're_A', { available: -196_700 }, { channel_clearing: 200_000, refunded_fees: -3_300 });
  const line = lineOf(refund, { refund: { amount: 6_178, currency: 'USD' }, payment: { amount: 30_888, currency: 'USD', rate: '32.3773' } });
  t.like(line, { type: 'refund', amount: -200_000, fee: -3_300, net: -196_700, source: 're_A', paymentIntentId: 'pi_1' });
  t.deepEqual(line.moves, { pending: 0, available: -196_700, dispute_hold: 0 });
  t.deepEqual(line.availableOn, NOW, 'it moved available money');
  t.deepEqual(line.exchange, { amount: -6_178, currency: 'USD', rate: '32.3773' });
  adds(t, line);

  const failed = move('refund_failed', 're_A', { available: 196_700 }, { channel_clearing: -200_000, refunded_fees: 3_300 });
  const reversal = lineOf(failed, { refund: { amount: 6_178, currency: 'USD' }, payment: { amount: 30_888, currency: 'USD', rate: '32.3773' } });
  t.like(reversal, { type: 'refund_reversal', amount: 200_000, fee: 3_300, net: 196_700 });
  t.deepEqual(reversal.exchange, { amount: 6_178, currency: 'USD', rate: '32.3773' });
  adds(t, reversal);

  const beforeRelease = lineOf(move('refund', 're_B', { pending: -196_700 }, { channel_clearing: 200_000, refunded_fees: -3_300 }));
  t.is(beforeRelease.availableOn, undefined, 'a refund of pending money is not available money');
});

test('disputes: a hold and its release move buckets only; a loss takes what was left and charges the fee', (t) => {
  const hold = lineOf(move('dispute_opened', 'dp_1', { pending: -983_500, dispute_hold: 983_500 }));
  t.like(hold, { type: 'dispute_hold', amount: 0, fee: 0, net: 0, source: 'dp_1', paymentIntentId: 'pi_1' });
  t.is(hold.availableOn, undefined);
  const heldWhenPriced = lineOf(move('dispute_hold', 'pi_1', { pending: -983_500, dispute_hold: 983_500 }));
  t.is(heldWhenPriced.type, 'dispute_hold');
  const won = lineOf(move('dispute_won', 'dp_1', { dispute_hold: -983_500, available: 983_500 }));
  t.like(won, { type: 'dispute_release', net: 0, moves: { pending: 0, available: 983_500, dispute_hold: -983_500 } });
  t.deepEqual(won.availableOn, NOW);
  const lost = lineOf(move('dispute_lost', 'dp_1', { dispute_hold: -983_500, available: -FEE }, { dispute_losses: 983_500, fee_revenue: FEE }));
  t.like(lost, { type: 'dispute_loss', amount: -983_500, fee: FEE, net: -983_500 - FEE });
  t.deepEqual(lost.moves, { pending: 0, available: -FEE, dispute_hold: -983_500 });
  const claim = lineOf(move('dispute_claim', 'pi_1', { pending: -983_500 }, { dispute_losses: 983_500 }));
  t.like(claim, { type: 'dispute_loss', amount: -983_500, fee: 0, net: -983_500 });
  for (const line of [hold, heldWhenPriced, won, lost, claim]) adds(t, line);
});

test('a settlement leaves available and names itself; a failed one comes back; paying it moves no merchant money', (t) => {
  const settlement = { settlementId: 'st_A', scope, amount: thb(500_000) };
  const created = settlementCreatedPosting(settlement, NOW);
  const covered = {
    ...record(created),
    entries: created.entries.map((entry) => (entry.account.includes(':available:') ? { ...entry, settlementId: 'st_A' } : entry)),
  };
  const line = balanceTransactionOf(scope, covered)!;
  t.like(line, { type: 'settlement', amount: -500_000, fee: 0, net: -500_000, source: 'st_A', settlementId: 'st_A' });
  t.is(line.paymentIntentId, undefined);
  t.deepEqual(line.availableOn, NOW);
  adds(t, line);
  const failed = lineOf(settlementFailedPosting(settlement, NOW));
  t.like(failed, { type: 'settlement_failure', amount: 500_000, net: 500_000, moves: { available: 500_000 } });
  t.is(failed.settlementId, undefined, 'not covered yet');
  t.is(balanceTransactionOf(scope, record(settlementPaidPosting(settlement, NOW))), undefined);
});

test('platform money alone makes no line: a chargeback, a payer’s second payment; nor does another merchant’s or mode’s view', (t) => {
  const chargeback = move('chargeback', 'dp_1', {}, { channel_clearing: 1_000_000, dispute_losses: -1_000_000 });
  t.is(balanceTransactionOf(scope, record(chargeback)), undefined);
  const duplicate = duplicatePaymentPosting({ attemptId: 'pa_1', scope, amount: { amount: 30_888, currency: 'USD' } }, NOW);
  t.is(balanceTransactionOf(scope, record(duplicate)), undefined);
  t.is(balanceTransactionOf({ merchantId: 'mch_B', mode: 'test' }, record(paymentPosting(payment, NOW))), undefined);
  t.is(balanceTransactionOf({ merchantId: 'mch_A', mode: 'live' }, record(paymentPosting(payment, NOW))), undefined);
});

test('a cause no type names is an adjustment; each type maps from its causes', (t) => {
  const entries = [
    { account: merchantAccount(scope, 'available', 'THB'), amount: 700, currency: 'THB' },
    { account: platformAccount('test', 'channel_clearing', 'THB'), amount: -700, currency: 'THB' },
  ];
  // A cause the ledger does not know yet, as a newer release of the service could book.
  const line = balanceTransactionOf(scope, { seq: 3, causeType: 'goodwill_credit', causeId: 'adj_1', created: NOW, entries });
  t.like(line, { type: 'adjustment', amount: 700, fee: 0, net: 700, source: 'adj_1' });
  t.deepEqual(
    TYPED_CAUSES.map((cause) => [cause, balanceTransactionType(cause)]),
    [
      ['payment', 'payment'],
      ['release', 'release'],
      ['refund', 'refund'],
      ['refund_failed', 'refund_reversal'],
      ['dispute_opened', 'dispute_hold'],
      ['dispute_hold', 'dispute_hold'],
      ['dispute_won', 'dispute_release'],
      ['dispute_lost', 'dispute_loss'],
      ['dispute_claim', 'dispute_loss'],
      ['settlement_created', 'settlement'],
      ['settlement_failed', 'settlement_failure'],
    ],
  );
  t.deepEqual([...new Set([...TYPED_CAUSES.map(balanceTransactionType), 'adjustment'])].sort(), [...BALANCE_TRANSACTION_TYPES].sort());
});

test('a transaction moving merchant money in two currencies is a broken journal and throws', (t) => {
  const tx = ledgerTransaction({
    causeType: 'release',
    causeId: 'pi_1',
    merchantId: 'mch_A',
    mode: 'test',
    created: NOW,
    entries: [
      { account: merchantAccount(scope, 'pending', 'THB'), amount: -100, currency: 'THB' },
      { account: merchantAccount(scope, 'available', 'THB'), amount: 100, currency: 'THB' },
      { account: merchantAccount(scope, 'pending', 'SGD'), amount: -3, currency: 'SGD' },
      { account: merchantAccount(scope, 'available', 'SGD'), amount: 3, currency: 'SGD' },
    ],
  });
  t.throws(() => balanceTransactionOf(scope, record(tx)), { instanceOf: CoreError, message: /in THB and SGD/ });
});

test('line ids: txn_ and a positive safe sequence, nothing else', (t) => {
  t.is(balanceTransactionSeq('txn_1'), 1);
  t.is(balanceTransactionSeq('txn_9007199254740991'), Number.MAX_SAFE_INTEGER);
  for (const bad of ['txn_0', 'txn_01', 'txn_', 'txn_-1', 'txn_1.5', 'pi_1', 'txn_9007199254740993', 'TXN_1', ' txn_1'])
    t.is(balanceTransactionSeq(bad), undefined, bad);
});

test('filters: each bound inclusive, a line without available_on matches no available_on bound', (t) => {
  const line = lineOf(paymentPosting(payment, NOW), { payment: { amount: 1_000_000, currency: 'THB', availableAt: LATER } });
  const unknown = lineOf(paymentPosting(payment, NOW));
  const matches = (filter: Parameters<typeof matchesBalanceTransactionFilter>[1]) => matchesBalanceTransactionFilter(line, filter);
  t.true(matches({}));
  t.true(
    matches({ type: 'payment', paymentIntentId: 'pi_1', currency: 'THB', createdGte: NOW, createdLte: NOW, availableOnGte: LATER, availableOnLte: LATER }),
  );
  t.false(matches({ type: 'refund' }));
  t.false(matches({ paymentIntentId: 'pi_2' }));
  t.false(matches({ currency: 'SGD' }));
  t.false(matches({ settlementId: 'st_A' }));
  t.false(matches({ createdGte: LATER }));
  t.false(matches({ availableOnLte: NOW }));
  t.true(matchesBalanceTransactionFilter(unknown, { createdLte: LATER }));
  t.false(matchesBalanceTransactionFilter(unknown, { availableOnGte: NOW }));
  t.false(matchesBalanceTransactionFilter(unknown, { availableOnLte: LATER }));
});
