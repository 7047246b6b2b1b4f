import test from 'ava';
import {
  ledgerTransaction,
  merchantAccount,
  merchantBalance,
  paymentPosting,
  platformAccount,
  paymentMovePosting,
  settlementCreatedPosting,
  VerifyLedger,
  type AccountScope,
  type PricedPayment,
} from '@payments/core';
import { aScope, ids, T0 } from '../fixtures';
import { sharedStorage, withOwnStorage, type StorageAdapter } from './storage-adapters';

function aPayment(scope: AccountScope, net = 9_835, fee = 165): PricedPayment {
  return { id: ids.paymentIntent(), ...scope, net: { amount: net, currency: 'THB' }, fee: { amount: fee, currency: 'THB' } };
}

/** What the release timer books for a payment: its whole net from pending to available. */
function releaseOf(payment: PricedPayment) {
  const { net } = payment;
  return paymentMovePosting(
    {
      causeType: 'release',
      causeId: payment.id,
      scope: payment,
      paymentIntentId: payment.id,
      currency: net.currency,
      merchant: { pending: -net.amount, available: net.amount },
    },
    T0,
  );
}

/** What every Ledger promises. */
export function ledgerContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} Ledger: ${what}`;

  test(title('a posting moves its balances; the same cause posts once'), async (t) => {
    const { ledger, uow } = storage();
    const scope = aScope();
    const payment = aPayment(scope);
    t.true(await uow.run((transaction) => transaction.bind(ledger).post(paymentPosting(payment, T0))));
    t.false(await uow.run((transaction) => transaction.bind(ledger).post(paymentPosting(payment, T0))), 'a replayed cause posts nothing');
    t.true(await ledger.hasPosted(`payment:${payment.id}`));
    await ledger.post(releaseOf(payment));
    const balance = merchantBalance(await ledger.balances(scope));
    t.deepEqual(balance, {
      available: [{ amount: 9_835n, currency: 'THB' }],
      pending: [{ amount: 0n, currency: 'THB' }],
      dispute_hold: [{ amount: 0n, currency: 'THB' }],
    });
  });

  test(title('twenty parallel posts of one cause post it once'), async (t) => {
    const { ledger, uow } = storage();
    const scope = aScope();
    const payment = aPayment(scope, 1_000, 10);
    const results = await Promise.all(Array.from({ length: 20 }, () => uow.run((transaction) => transaction.bind(ledger).post(paymentPosting(payment, T0)))));
    t.is(results.filter(Boolean).length, 1);
    t.deepEqual(
      (await ledger.balances(scope)).map((row) => row.balance),
      [1_000n],
    );
  });

  test(title("a merchant's balances list only its own accounts of the mode"), async (t) => {
    const { ledger } = storage();
    const scope = aScope('test');
    await ledger.post(paymentPosting(aPayment(scope, 100, 0), T0));
    await ledger.post(paymentPosting(aPayment(aScope('test'), 500, 5), T0));
    await ledger.post(paymentPosting(aPayment({ ...scope, mode: 'live' }, 700, 7), T0));
    const rows = await ledger.balances(scope);
    t.deepEqual(
      rows.map((row) => [row.account, row.balance]),
      [[merchantAccount(scope, 'pending', 'THB'), 100n]],
    );
  });

  test(title('a posting that throws with its unit of work leaves no trace'), async (t) => {
    const { ledger, uow } = storage();
    const scope = aScope();
    const payment = aPayment(scope);
    await t.throwsAsync(
      uow.run(async (transaction) => {
        await transaction.bind(ledger).post(paymentPosting(payment, T0));
        throw new Error('the change it belongs to failed');
      }),
    );
    t.false(await ledger.hasPosted(`payment:${payment.id}`));
    t.deepEqual(await ledger.balances(scope), []);
  });

  test(title('balanceForUpdate reads one account, 0 when it has none'), async (t) => {
    const { ledger, uow } = storage();
    const scope = aScope();
    const payment = aPayment(scope, 2_000, 0);
    await ledger.post(paymentPosting(payment, T0));
    await ledger.post(releaseOf(payment));
    await ledger.post(
      settlementCreatedPosting({ settlementId: `st_${payment.id.slice(3, 10).toUpperCase()}`, scope, amount: { amount: 1_500, currency: 'THB' } }, T0),
    );
    t.is(await uow.run((transaction) => transaction.bind(ledger).balanceForUpdate(merchantAccount(scope, 'available', 'THB'))), 500n);
    t.is(await uow.run((transaction) => transaction.bind(ledger).balanceForUpdate(merchantAccount(scope, 'available', 'SGD'))), 0n);
  });

  test(title('a transaction whose legs are all zero books nothing and answers false'), async (t) => {
    const { ledger, uow } = storage();
    const scope = aScope();
    // 1 IDR paid to a THB merchant: fee and net both round to 0 satang.
    const payment = aPayment(scope, 0, 0);
    t.false(await uow.run((transaction) => transaction.bind(ledger).post(paymentPosting(payment, T0))));
    t.false(await ledger.hasPosted(`payment:${payment.id}`));
    t.deepEqual(await ledger.balances(scope), []);
  });

  test(title('balances, journal sums and rebuilt rows stay exact past 2^53 − 1'), async (t) => {
    await withOwnStorage(adapter, async ({ ledger, uow }) => {
      const scope = aScope();
      const max = Number.MAX_SAFE_INTEGER;
      // Three payments of net 2^53 − 2 and fee 1: each entry fits, every sum passes 2^53 − 1.
      const payments = [aPayment(scope, max - 1, 1), aPayment(scope, max - 1, 1), aPayment(scope, max - 1, 1)];
      for (const payment of payments) await ledger.post(paymentPosting(payment, T0));
      const pending = merchantAccount(scope, 'pending', 'THB');
      const expected = 3n * BigInt(max - 1); // 27021597764222970; as a double it would end in …968
      t.is(await uow.run((transaction) => transaction.bind(ledger).balanceForUpdate(pending)), expected);
      t.deepEqual(merchantBalance(await ledger.balances(scope)).pending, [{ amount: expected, currency: 'THB' }]);
      const clearing = platformAccount(scope.mode, 'channel_clearing', 'THB');
      const journal = new Map((await ledger.journalTotals()).map((row) => [row.account, row.balance]));
      t.is(journal.get(pending), expected);
      t.is(journal.get(clearing), -3n * BigInt(max));
      t.deepEqual(await new VerifyLedger({ ledger }).execute({ limit: 10 }), { ok: true, accounts: 3, breaks: [] });
      await ledger.rebuildBalances();
      const table = new Map((await ledger.balanceTable()).map((row) => [row.account, row.balance]));
      t.is(table.get(pending), expected);
      t.is(table.get(clearing), -3n * BigInt(max));
      t.true((await new VerifyLedger({ ledger }).execute({ limit: 10 })).ok);
    });
  });

  test(title("a payment's shares are what its own transactions left in each bucket, apart from other payments'"), async (t) => {
    const { ledger } = storage();
    const scope = aScope();
    const [first, second] = [aPayment(scope), aPayment(scope)];
    for (const payment of [first, second]) await ledger.post(paymentPosting(payment, T0));
    await ledger.post(releaseOf(first));
    t.deepEqual(await ledger.paymentShares(scope, first.id), { pending: 0n, available: 9_835n, dispute_hold: 0n });
    t.deepEqual(await ledger.paymentShares(scope, second.id), { pending: 9_835n, available: 0n, dispute_hold: 0n });
    t.deepEqual(
      await ledger.paymentShares({ ...scope, mode: 'live' }, first.id),
      { pending: 0n, available: 0n, dispute_hold: 0n },
      'another mode sees none of it',
    );
  });

  test(
    title('uncovered entries of available, in posting order; covering marks each once, a rolled-back cover leaves them; covered totals by cause'),
    async (t) => {
      const { ledger, uow } = storage();
      const scope = aScope();
      const available = merchantAccount(scope, 'available', 'THB');
      const [first, second] = [aPayment(scope, 4_000, 40), aPayment(scope, 1_000, 10)];
      for (const payment of [first, second]) {
        await ledger.post(paymentPosting(payment, T0));
        await ledger.post(releaseOf(payment));
      }
      const refund = paymentMovePosting(
        {
          causeType: 'refund',
          causeId: `re_${first.id.slice(3)}`,
          scope,
          paymentIntentId: first.id,
          currency: 'THB',
          merchant: { available: -300 },
          platform: { channel_clearing: 300 },
        },
        T0,
      );
      await ledger.post(refund);
      const entries = await ledger.uncoveredEntries(available);
      t.deepEqual(
        entries.map(({ amount, causeType, causeId, paymentIntentId }) => ({ amount, causeType, causeId, paymentIntentId })),
        [
          { amount: 4_000, causeType: 'release', causeId: first.id, paymentIntentId: first.id },
          { amount: 1_000, causeType: 'release', causeId: second.id, paymentIntentId: second.id },
          { amount: -300, causeType: 'refund', causeId: refund.causeId, paymentIntentId: first.id },
        ],
      );

      const settlementId = `st_${first.id.slice(3, 12).toUpperCase()}`;
      const [one, two, three] = entries.map((entry) => entry.id);
      // A cover that rolls back with its unit of work marks nothing.
      await t.throwsAsync(
        uow.run(async (transaction) => {
          t.is(await transaction.bind(ledger).coverEntries(available, settlementId, [one, three]), 2);
          throw new Error('the settlement failed');
        }),
      );
      t.is((await ledger.uncoveredEntries(available)).length, 3);
      t.is(await uow.run((transaction) => transaction.bind(ledger).coverEntries(available, settlementId, [one, three, one])), 2);
      t.is(await ledger.coverEntries(available, 'st_OTHER', [one, two]), 1, 'an entry covered already is not covered again');
      await ledger.post(settlementCreatedPosting({ settlementId, scope, amount: { amount: 3_700, currency: 'THB' } }, T0));
      t.is(await ledger.coverCause(available, settlementId, `settlement_created:${settlementId}`), 1);
      t.is(await ledger.coverCause(available, settlementId, `settlement_created:${settlementId}`), 0);
      t.deepEqual(await ledger.uncoveredEntries(available), []);

      const [coverage, other, none] = await ledger.coveredTotals(available, [settlementId, 'st_OTHER', 'st_NONE']);
      t.deepEqual(
        { ...coverage, causes: [...(coverage?.causes ?? [])].sort((a, b) => a.causeType.localeCompare(b.causeType)) },
        {
          settlementId,
          causes: [
            { causeType: 'refund', count: 1, amount: -300n },
            { causeType: 'release', count: 1, amount: 4_000n },
          ],
          released: { count: 1, net: 4_000n, fee: 40n },
        },
      );
      t.like(other, { settlementId: 'st_OTHER', released: { count: 1, net: 1_000n, fee: 10n } });
      t.deepEqual(none, { settlementId: 'st_NONE', causes: [], released: { count: 0, net: 0n, fee: 0n } });
    },
  );

  test(title("paymentsTotal sums what the named payments' transactions left on one account"), async (t) => {
    const { ledger } = storage();
    const scope = aScope();
    const [first, second, third] = [aPayment(scope, 4_000, 40), aPayment(scope, 1_000, 10), aPayment(scope, 700, 7)];
    for (const payment of [first, second, third]) await ledger.post(paymentPosting(payment, T0));
    await ledger.post(releaseOf(third));
    const pending = merchantAccount(scope, 'pending', 'THB');
    t.is(await ledger.paymentsTotal(pending, [first.id, second.id, third.id]), 5_000n);
    t.is(await ledger.paymentsTotal(pending, [second.id]), 1_000n);
    t.is(await ledger.paymentsTotal(pending, []), 0n);
    t.is(await ledger.paymentsTotal(merchantAccount({ ...scope, mode: 'live' }, 'pending', 'THB'), [first.id]), 0n);
  });

  test(title('channel movements are kept once per cause, even with no leg to book, and summed per key over every movement'), async (t) => {
    const { ledger, uow } = storage();
    const scope = aScope();
    const channel = `c-${scope.merchantId}`;
    const paid = (payment: PricedPayment, attemptId: string, amount: number, currency = 'THB') =>
      paymentPosting(payment, T0, { channel, attemptId, amount: { amount, currency } });
    const [first, second] = [aPayment(scope), aPayment(scope)];
    t.true(await uow.run((transaction) => transaction.bind(ledger).post(paid(first, 'pa_1', 10_000))));
    t.false(await ledger.post(paid(first, 'pa_1', 10_000)), 'a replayed cause keeps no second movement');
    await ledger.post(paid(second, 'pa_2', 300, 'SGD'));
    // 1 IDR to a THB merchant: no leg to book, no journal transaction, but the channel collected it.
    const zero = aPayment(scope, 0, 0);
    t.false(await ledger.post(paid(zero, 'pa_zero', 1, 'IDR')));
    t.false(await ledger.hasPosted(`payment:${zero.id}`));
    // A refund made (+) and failed (−), and one made only: movements of the lead's refund postings.
    const refund = (causeType: 'refund' | 'refund_failed', refundId: string, amount: number, created: Date) =>
      ledgerTransaction({
        causeType,
        causeId: refundId,
        merchantId: scope.merchantId,
        mode: scope.mode,
        paymentIntentId: first.id,
        created,
        entries: [
          { account: merchantAccount(scope, 'pending', 'THB'), amount: -Math.sign(amount) * 100, currency: 'THB' },
          { account: platformAccount(scope.mode, 'channel_clearing', 'THB'), amount: Math.sign(amount) * 100, currency: 'THB' },
        ],
        channelMovement: { channel, kind: 'refund', reference: refundId, amount, currency: 'THB' },
      });
    const later = new Date(T0.getTime() + 60_000);
    await ledger.post(refund('refund', 're_failed', 2_000, T0));
    await ledger.post(refund('refund_failed', 're_failed', -2_000, later));
    await ledger.post(refund('refund', 're_made', 500, later));

    const byKey = (totals: Awaited<ReturnType<typeof ledger.channelMovements>>) =>
      Object.fromEntries(totals.map((total) => [`${total.kind}:${total.reference}:${total.currency}`, [total.amount, total.movements, total.merchantId]]));
    t.deepEqual(byKey(await ledger.channelMovements({ mode: scope.mode, channel })), {
      'payment:pa_1:THB': [10_000n, 1, scope.merchantId],
      'payment:pa_2:SGD': [300n, 1, scope.merchantId],
      'payment:pa_zero:IDR': [1n, 1, scope.merchantId],
      'refund:re_failed:THB': [0n, 2, scope.merchantId],
      'refund:re_made:THB': [500n, 1, scope.merchantId],
    });
    // Active since `later`: every movement of those keys, the older ones of re_failed included.
    const active = await ledger.channelMovements({ mode: scope.mode, channel, activeSince: later });
    t.deepEqual(byKey(active), { 'refund:re_failed:THB': [0n, 2, scope.merchantId], 'refund:re_made:THB': [500n, 1, scope.merchantId] });
    t.like(
      active.find((total) => total.reference === 're_failed'),
      { channel, kind: 'refund', firstCreated: T0, lastCreated: later },
    );
    const named = await ledger.channelMovements({
      mode: scope.mode,
      channel,
      keys: [
        { kind: 'payment', reference: 'pa_2' },
        { kind: 'refund', reference: 'pa_2' },
      ],
    });
    t.deepEqual(byKey(named), { 'payment:pa_2:SGD': [300n, 1, scope.merchantId] });
    t.deepEqual(await ledger.channelMovements({ mode: scope.mode, channel, keys: [] }), []);
    t.deepEqual(await ledger.channelMovements({ mode: 'live', channel }), [], 'another mode has none of them');
    t.true((await new VerifyLedger({ ledger }).execute({ limit: 10 })).ok);
  });

  test(title('a channel movement rolls back with its unit of work'), async (t) => {
    const { ledger, uow } = storage();
    const scope = aScope();
    const channel = `c-${scope.merchantId}`;
    await t.throwsAsync(
      uow.run(async (transaction) => {
        await transaction.bind(ledger).post(paymentPosting(aPayment(scope, 0, 0), T0, { channel, attemptId: 'pa_1', amount: { amount: 1, currency: 'IDR' } }));
        throw new Error('the change it belongs to failed');
      }),
    );
    t.deepEqual(await ledger.channelMovements({ mode: scope.mode, channel }), []);
  });

  test(title('verify on a ledger that is posting meanwhile reports no break: a difference between its two reads is asked again at one moment'), async (t) => {
    await withOwnStorage(adapter, async ({ ledger }) => {
      const scope = aScope();
      const payments = Array.from({ length: 40 }, () => aPayment(scope));
      let posting = true;
      const posted = (async () => {
        for (const payment of payments) {
          await ledger.post(paymentPosting(payment, T0));
          await ledger.post(releaseOf(payment));
        }
        posting = false;
      })();
      const reports = [];
      while (posting) reports.push(await new VerifyLedger({ ledger }).execute({ limit: 10 }));
      await posted;
      reports.push(await new VerifyLedger({ ledger }).execute({ limit: 10 }));
      t.deepEqual(
        reports.flatMap((report) => report.breaks),
        [],
      );
    });
  });

  test(title('verify passes on a healthy journal and names a balance row that drifted; rebuild repairs it'), async (t) => {
    await withOwnStorage(adapter, async ({ ledger }) => {
      const scope = aScope();
      const payment = aPayment(scope);
      await ledger.post(paymentPosting(payment, T0));
      await ledger.post(releaseOf(payment));
      const healthy = await new VerifyLedger({ ledger }).execute({ limit: 10 });
      t.deepEqual(healthy, { ok: true, accounts: 4, breaks: [] });

      // Corrupt one balance row behind the ledger's back: a posting that skipped the balance table.
      const drift = platformAccount(scope.mode, 'fee_revenue', 'THB');
      const before = (await ledger.balanceTable()).find((row) => row.account === drift);
      t.truthy(before);
      await corruptBalance(ledger, drift);
      const broken = await new VerifyLedger({ ledger }).execute({ limit: 10 });
      t.false(broken.ok);
      t.deepEqual(
        broken.breaks.map((item) => [item.kind, item.subject]),
        [['balance_mismatch', drift]],
      );

      t.true((await ledger.rebuildBalances()) > 0);
      t.true((await new VerifyLedger({ ledger }).execute({ limit: 10 })).ok);
    });
  });
}

/** Adds 1 to a balance row without a journal entry, through the adapter's own storage. */
async function corruptBalance(ledger: object, account: string): Promise<void> {
  const candidate = ledger as {
    store?: { tables: { ledgerBalances: Map<string, { balance: bigint }> } };
    context?: { knex: (table: string) => { where: (w: object) => { increment: (c: string, n: number) => Promise<unknown> } } };
  };
  if (candidate.store) {
    const row = candidate.store.tables.ledgerBalances.get(account);
    if (row) row.balance += 1n;
    return;
  }
  await candidate.context?.knex('ledger_balances').where({ account }).increment('balance', 1);
}
