import test from 'ava';
import type { ChannelStatement, ReconciliationItem, StatementLine } from '@payments/core';
import { ids, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

const at = (ms: number): Date => new Date(T0.getTime() + ms);

function line(kind: StatementLine['kind'], channelId: string, reference: string, amount: number, currency = 'THB'): StatementLine {
  return { kind, channelId, reference, amount, currency, occurredAt: T0 };
}

function page(lines: StatementLine[], next: string): ChannelStatement {
  return { lines, next, hasMore: false, asOf: at(1_000) };
}

function anItem(channel: string, overrides: Partial<ReconciliationItem> = {}): ReconciliationItem {
  return {
    id: `rcb_${ids.settlement().slice(3)}`,
    channel,
    mode: 'test',
    kind: 'payment',
    reference: `pa_${ids.settlement().slice(3)}`,
    reason: 'missing_in_ledger',
    statement: [{ amount: 10_000n, currency: 'THB' }],
    ledger: [],
    status: 'waiting',
    firstSeenAt: T0,
    updated: T0,
    ...overrides,
  };
}

/** What every ReconciliationStore promises. */
export function reconciliationStoreContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} ReconciliationStore: ${what}`;
  const aChannel = (): string => `c-${ids.merchant()}`;

  test(title('a statement page is kept once per line with its cursor, and summed per key'), async (t) => {
    const { reconciliation: store } = storage();
    const channel = aChannel();
    t.is(await store.progress(channel, 'test'), undefined);
    const first = [line('payment', 'ord_1', 'pa_1', 10_000), line('refund', 'rfd_1', 're_1', 3_000), line('payment', 'ord_2', 'pa_2', 1, 'IDR')];
    t.is(await store.saveStatementPage(channel, 'test', page(first, 'c1'), at(5_000)), 3);
    // Read again (a cursor that did not move on), with a correction of pa_1: only the new line is kept.
    t.is(await store.saveStatementPage(channel, 'test', page([...first, line('payment', 'ord_1b', 'pa_1', -1_000)], 'c2'), at(60_000)), 1);
    t.like(await store.progress(channel, 'test'), { channel, mode: 'test', cursor: 'c2', statementAsOf: at(1_000) });
    const byKey = (totals: Awaited<ReturnType<typeof store.lineTotals>>) =>
      Object.fromEntries(totals.map((total) => [`${total.kind}:${total.reference}:${total.currency}`, total.amount]));
    t.deepEqual(byKey(await store.lineTotals({ channel, mode: 'test' })), { 'payment:pa_1:THB': 9_000n, 'refund:re_1:THB': 3_000n, 'payment:pa_2:IDR': 1n });
    t.deepEqual(
      byKey(await store.lineTotals({ channel, mode: 'test', fetchedSince: at(60_000) })),
      { 'payment:pa_1:THB': 9_000n },
      'a key fetched since: all of its lines',
    );
    t.deepEqual(byKey(await store.lineTotals({ channel, mode: 'test', keys: [{ kind: 'refund', reference: 're_1' }] })), { 'refund:re_1:THB': 3_000n });
    t.deepEqual(await store.lineTotals({ channel, mode: 'test', keys: [] }), []);
    t.deepEqual(await store.lineTotals({ channel, mode: 'live' }), []);
  });

  test(title('items are recorded with the progress, listed newest change first, and counted while open'), async (t) => {
    const { reconciliation: store } = storage();
    const channel = aChannel();
    const waiting = anItem(channel);
    const open = anItem(channel, {
      status: 'open',
      reason: 'amount_differs',
      ledger: [{ amount: 9_000n, currency: 'THB' }],
      merchantId: 'mch_A',
      openedAt: at(10),
      updated: at(10),
    });
    const pending = anItem(channel, {
      kind: 'refund',
      reason: 'missing_in_statement',
      statement: [],
      ledger: [{ amount: 500n, currency: 'THB' }],
      detail: 'refund_pending',
    });
    await store.record(channel, 'test', { save: [waiting, open, pending], remove: [] }, at(20));
    t.like(await store.progress(channel, 'test'), { checkedUntil: at(20) });
    const unsettled = await store.unsettled(channel, 'test');
    t.deepEqual(
      unsettled.sort((a, b) => (a.id < b.id ? -1 : 1)),
      [waiting, open, pending].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    t.deepEqual((await store.list({ channel, limit: 10 }))[0], open);
    t.deepEqual(await store.list({ channel, status: 'open', limit: 10 }), [open]);
    t.true(
      (await store.countOpen()).some((count) => count.channel === channel && count.mode === 'test' && count.reason === 'amount_differs' && count.count === 1),
    );

    // The waiting one matched (removed), the open one cleared (kept), and a new item for the cleared key.
    const cleared: ReconciliationItem = { ...open, status: 'cleared', clearedAt: at(30), updated: at(30) };
    const again = anItem(channel, { reference: open.reference, firstSeenAt: at(40), updated: at(40) });
    await store.record(channel, 'test', { save: [cleared, again], remove: [waiting.id] }, at(40));
    t.deepEqual((await store.unsettled(channel, 'test')).map((item) => item.id).sort(), [pending.id, again.id].sort());
    t.deepEqual(await store.list({ channel, status: 'cleared', limit: 10 }), [cleared]);
    t.false((await store.countOpen()).some((count) => count.channel === channel));
    // A second unsettled item of one key is refused, and nothing of that write is kept.
    await t.throwsAsync(store.record(channel, 'test', { save: [anItem(channel, { reference: again.reference })], remove: [pending.id] }, at(50)), {
      any: true,
    });
    t.deepEqual((await store.unsettled(channel, 'test')).map((item) => item.id).sort(), [pending.id, again.id].sort());
    t.like(await store.progress(channel, 'test'), { checkedUntil: at(40) });
  });
}
