import test from 'ava';
import { createInMemoryStorage } from '@payments/in-memory';
import {
  accountCode,
  isEmptyTransaction,
  ledgerTransaction,
  merchantAccount,
  merchantBalance,
  parseAccountCode,
  platformAccount,
  transactionProblem,
  type LedgerTransaction,
} from '../../src/ledger/domain/ledger';
import {
  paymentMovePosting,
  paymentPosting,
  settlementCreatedPosting,
  settlementFailedPosting,
  settlementPaidPosting,
} from '../../src/ledger/domain/ledger-postings';
import { CoreError } from '../../src/common/core-error';
import { VerifyLedger } from '../../src/ledger/use-cases/verify-ledger.use-case';

const NOW = new Date('2026-11-01T00:00:00Z');
const scope = { merchantId: 'mch_A', mode: 'test' as const };
const thb = (amount: number) => ({ amount, currency: 'THB' });
const payment = { id: 'pi_1', ...scope, net: thb(9_835), fee: thb(165) };

test('account codes round-trip and anything else is refused', (t) => {
  const merchant = merchantAccount(scope, 'dispute_hold', 'THB');
  t.is(merchant, 'm:mch_A:test:dispute_hold:THB');
  t.deepEqual(parseAccountCode(merchant), { kind: 'merchant', merchantId: 'mch_A', mode: 'test', bucket: 'dispute_hold', currency: 'THB' });
  const platform = platformAccount('live', 'fee_revenue', 'SGD');
  t.is(accountCode(parseAccountCode(platform)!), platform);
  for (const bad of ['m:mch_A:test:spare:THB', 'p:test:cash:THB', 'p:prod:fee_revenue:THB', 'x', '']) t.is(parseAccountCode(bad), undefined, bad);
});

test('every posting of the money flow sums to zero per currency and stays in its merchant and mode', (t) => {
  const move = (causeType: 'release' | 'dispute_opened' | 'dispute_won' | 'dispute_lost', causeId: string, merchant: Record<string, number>, platform = {}) =>
    paymentMovePosting({ causeType, causeId, scope, paymentIntentId: 'pi_1', currency: 'THB', merchant, platform }, NOW);
  const settlement = { settlementId: 'st_1', scope, amount: thb(9_835) };
  const postings = [
    paymentPosting(payment, NOW),
    move('release', 'pi_1', { pending: -9_835, available: 9_835 }),
    move('dispute_opened', 'dp_1', { available: -9_835, dispute_hold: 9_835 }),
    move('dispute_won', 'dp_1', { dispute_hold: -9_835, available: 9_835 }),
    move('dispute_lost', 'dp_1', { dispute_hold: -9_835, available: -1_500 }, { fee_revenue: 1_500, channel_clearing: 10_000, dispute_losses: 9_835 - 10_000 }),
    settlementCreatedPosting(settlement, NOW),
    settlementPaidPosting(settlement, NOW),
    settlementFailedPosting(settlement, NOW),
  ];
  for (const tx of postings) t.is(transactionProblem(tx), undefined, tx.cause);
  t.deepEqual(
    postings.map((tx) => tx.cause),
    [
      'payment:pi_1',
      'release:pi_1',
      'dispute_opened:dp_1',
      'dispute_won:dp_1',
      'dispute_lost:dp_1',
      'settlement_created:st_1',
      'settlement_paid:st_1',
      'settlement_failed:st_1',
    ],
  );
  t.deepEqual(paymentPosting(payment, NOW).entries, [
    { account: 'p:test:channel_clearing:THB', amount: -10_000, currency: 'THB' },
    { account: 'm:mch_A:test:pending:THB', amount: 9_835, currency: 'THB' },
    { account: 'p:test:fee_revenue:THB', amount: 165, currency: 'THB' },
  ]);
});

test('a transaction that does not balance, crosses merchants or mixes currencies is refused', (t) => {
  const base = { causeType: 'payment' as const, causeId: 'pi_x', merchantId: 'mch_A', mode: 'test' as const, created: NOW };
  const refused = (entries: LedgerTransaction['entries']) => t.throws(() => ledgerTransaction({ ...base, entries }), { instanceOf: CoreError });
  refused([
    { account: merchantAccount(scope, 'pending', 'THB'), amount: 100, currency: 'THB' },
    { account: platformAccount('test', 'fee_revenue', 'THB'), amount: -99, currency: 'THB' },
  ]);
  refused([
    { account: merchantAccount({ merchantId: 'mch_B', mode: 'test' }, 'pending', 'THB'), amount: 100, currency: 'THB' },
    { account: platformAccount('test', 'fee_revenue', 'THB'), amount: -100, currency: 'THB' },
  ]);
  refused([
    { account: merchantAccount(scope, 'pending', 'THB'), amount: 100, currency: 'THB' },
    { account: platformAccount('live', 'fee_revenue', 'THB'), amount: -100, currency: 'THB' },
  ]);
  refused([
    { account: merchantAccount(scope, 'pending', 'THB'), amount: 100, currency: 'SGD' },
    { account: platformAccount('test', 'fee_revenue', 'THB'), amount: -100, currency: 'SGD' },
  ]);
  refused([
    { account: merchantAccount(scope, 'pending', 'THB'), amount: 0.5, currency: 'THB' },
    { account: platformAccount('test', 'fee_revenue', 'THB'), amount: -0.5, currency: 'THB' },
  ]);
});

test('zero legs drop out, and a transaction of zero legs only is empty: it books nothing instead of failing', (t) => {
  // 1 IDR paid to a THB merchant converts to 0 satang: fee and net are 0.
  const zero = paymentPosting({ ...payment, net: { amount: 0, currency: 'THB' }, fee: { amount: 0, currency: 'THB' } }, NOW);
  t.deepEqual(zero.entries, []);
  t.true(isEmptyTransaction(zero));
  t.is(transactionProblem(zero), undefined);
  // A fee that rounds to 0 leaves the net's two legs.
  const feeless = paymentPosting({ ...payment, net: { amount: 3, currency: 'THB' }, fee: { amount: 0, currency: 'THB' } }, NOW);
  t.deepEqual(
    feeless.entries.map((entry) => entry.amount),
    [-3, 3],
  );
  t.false(isEmptyTransaction(feeless));
});

test('sums are exact past 2^53: legs of up to 2^53 − 1 that cancel out are balanced, an off-by-one is not', (t) => {
  const max = Number.MAX_SAFE_INTEGER;
  const lost = (hold: number, fee: number) =>
    paymentMovePosting(
      {
        causeType: 'dispute_lost',
        causeId: 'dp_1',
        scope,
        paymentIntentId: 'pi_1',
        currency: 'THB',
        merchant: { dispute_hold: -hold, available: -fee },
        platform: { dispute_losses: hold, fee_revenue: fee },
      },
      NOW,
    );
  t.is(lost(max, max).entries.length, 4);
  // In numbers, max + max − max − (max − 1) rounds to 0 and would pass; in BigInt it is 1.
  const entries = [
    { account: merchantAccount(scope, 'available', 'THB'), amount: max, currency: 'THB' },
    { account: merchantAccount(scope, 'pending', 'THB'), amount: max, currency: 'THB' },
    { account: platformAccount('test', 'fee_revenue', 'THB'), amount: -max, currency: 'THB' },
    { account: platformAccount('test', 'channel_clearing', 'THB'), amount: -(max - 1), currency: 'THB' },
  ];
  t.is(
    transactionProblem({ cause: 'release:x', causeType: 'release', causeId: 'x', merchantId: 'mch_A', mode: 'test', created: NOW, entries }),
    'entries in THB sum to 1',
  );
});

test('the balance lists every currency in all three buckets, zeros included', (t) => {
  const rows = [
    { account: merchantAccount(scope, 'pending', 'THB'), currency: 'THB', balance: 500n },
    { account: merchantAccount(scope, 'available', 'SGD'), currency: 'SGD', balance: -20n },
    { account: platformAccount('test', 'fee_revenue', 'THB'), currency: 'THB', balance: 9n },
  ];
  t.deepEqual(merchantBalance(rows), {
    available: [
      { amount: -20n, currency: 'SGD' },
      { amount: 0n, currency: 'THB' },
    ],
    pending: [
      { amount: 0n, currency: 'SGD' },
      { amount: 500n, currency: 'THB' },
    ],
    dispute_hold: [
      { amount: 0n, currency: 'SGD' },
      { amount: 0n, currency: 'THB' },
    ],
  });
});

test('verify names an unbalanced transaction, a foreign entry and a negative pending bucket', async (t) => {
  const storage = createInMemoryStorage();
  const verify = new VerifyLedger({ ledger: storage.ledger });
  await storage.ledger.post(paymentPosting(payment, NOW));
  t.deepEqual(await verify.execute({ limit: 10 }), { ok: true, accounts: 3, breaks: [] });

  // Written past ledgerTransaction's checks, as a bug or a hand edit would.
  const forged = (cause: string, entries: LedgerTransaction['entries']): LedgerTransaction => ({
    cause,
    causeType: 'release',
    causeId: cause,
    merchantId: 'mch_A',
    mode: 'test',
    created: NOW,
    entries,
  });
  await storage.ledger.post(forged('release:lopsided', [{ account: merchantAccount(scope, 'available', 'THB'), amount: 5, currency: 'THB' }]));
  await storage.ledger.post(
    forged('release:foreign', [
      { account: merchantAccount({ merchantId: 'mch_B', mode: 'test' }, 'available', 'THB'), amount: 7, currency: 'THB' },
      { account: merchantAccount(scope, 'available', 'THB'), amount: -7, currency: 'THB' },
    ]),
  );
  await storage.ledger.post(
    forged('release:overdrawn', [
      { account: merchantAccount(scope, 'pending', 'THB'), amount: -20_000, currency: 'THB' },
      { account: merchantAccount(scope, 'available', 'THB'), amount: 20_000, currency: 'THB' },
    ]),
  );
  const report = await verify.execute({ limit: 10 });
  t.false(report.ok);
  t.deepEqual(report.breaks.map((item) => `${item.kind} ${item.subject}`).sort(), [
    'foreign_entry release:foreign',
    'negative_bucket m:mch_A:test:pending:THB',
    'unbalanced_transaction release:lopsided',
  ]);
});
