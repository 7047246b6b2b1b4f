import test from 'ava';
import {
  BALANCE_TRANSACTION_TYPES,
  balanceTransactionOf,
  ledgerTransaction,
  matchesBalanceTransactionFilter,
  merchantAccount,
  paymentMovePosting,
  paymentPosting,
  platformAccount,
  settlementCreatedPosting,
  settlementPaidPosting,
  type AccountScope,
  type BalanceTransaction,
  type BalanceTransactionFilter,
  type LedgerTransaction,
  type MerchantBucket,
  type PaymentIntent,
  type PlatformAccountName,
  type Refund,
  type StoragePorts,
} from '@payments/core';
import { aPaymentIntent, aScope, BASE32, BASE62, ids, randomFrom, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

const MINUTE = 60_000;
const at = (minutes: number): Date => new Date(T0.getTime() + minutes * MINUTE);

/** A refund of `intent` as stored, for the record's presentment side. */
function aRefund(intent: PaymentIntent, amount: number, debit: number): Refund {
  return {
    id: `re_${randomFrom(BASE32, 26)}`,
    merchantId: intent.merchantId,
    mode: intent.mode,
    paymentIntentId: intent.id,
    amount,
    currency: intent.currency,
    status: 'pending',
    metadata: {},
    debit: { amount: debit, currency: 'THB' },
    debitedFrom: 'available',
    channel: 'simulator',
    channelOrderId: `order-${ids.token()}`,
    created: at(30),
    updated: at(30),
  };
}

/**
 * A history of one merchant: a USD payment (priced at 32.5, channel-settled, released) with a
 * refund and its failure, a THB payment whose release is due but has not fired, a dispute held and
 * won, a settlement made and paid, and a chargeback of platform money alone (no line).
 */
async function history(storage: StoragePorts, scope: AccountScope): Promise<{ usd: PaymentIntent; thb: PaymentIntent; refund: Refund; settlementId: string }> {
  const { ledger, intents, refunds } = storage;
  const usd = aPaymentIntent(scope, {
    amount: 10_000,
    currency: 'USD',
    status: 'channel_settled',
    fx: { locked: true, rate: '32.5' },
    net: { amount: 320_000, currency: 'THB' },
    fee: { amount: 5_000, currency: 'THB' },
    availableAt: at(20),
    releasedAt: at(21),
  });
  const thb = aPaymentIntent(scope, {
    amount: 20_000,
    status: 'channel_settled',
    net: { amount: 19_670, currency: 'THB' },
    fee: { amount: 330, currency: 'THB' },
    availableAt: at(24 * 60),
  });
  await intents.insert(usd);
  await intents.insert(thb);
  const refund = aRefund(usd, 2_000, 64_000);
  await refunds.insert(refund);
  const move = (
    causeType: LedgerTransaction['causeType'],
    causeId: string,
    payment: PaymentIntent,
    minutes: number,
    merchant: Partial<Record<MerchantBucket, number>>,
    platform: Partial<Record<PlatformAccountName, number>> = {},
  ) => paymentMovePosting({ causeType, causeId, scope, paymentIntentId: payment.id, currency: 'THB', merchant, platform }, at(minutes));
  const settlementId = ids.settlement();
  const disputeId = `dp_${randomFrom(BASE62, 24)}`;
  const postings = [
    paymentPosting({ id: usd.id, ...scope, net: usd.net!, fee: usd.fee! }, at(10)),
    move('release', usd.id, usd, 21, { pending: -320_000, available: 320_000 }),
    paymentPosting({ id: thb.id, ...scope, net: thb.net!, fee: thb.fee! }, at(25)),
    move('refund', refund.id, usd, 30, { available: -64_000 }, { channel_clearing: 65_000, refunded_fees: -1_000 }),
    move('refund_failed', refund.id, usd, 31, { available: 64_000 }, { channel_clearing: -65_000, refunded_fees: 1_000 }),
    move('dispute_opened', disputeId, thb, 40, { pending: -19_670, dispute_hold: 19_670 }),
    move('dispute_won', disputeId, thb, 41, { dispute_hold: -19_670, pending: 19_670 }),
    ledgerTransaction({
      causeType: 'chargeback',
      causeId: `dp_${randomFrom(BASE62, 24)}`,
      merchantId: scope.merchantId,
      mode: scope.mode,
      paymentIntentId: thb.id,
      created: at(42),
      entries: [
        { account: platformAccount(scope.mode, 'channel_clearing', 'THB'), amount: 100, currency: 'THB' },
        { account: platformAccount(scope.mode, 'dispute_losses', 'THB'), amount: -100, currency: 'THB' },
      ],
    }),
    settlementCreatedPosting({ settlementId, scope, amount: { amount: 320_000, currency: 'THB' } }, at(50)),
    settlementPaidPosting({ settlementId, scope, amount: { amount: 320_000, currency: 'THB' } }, at(51)),
  ];
  for (const tx of postings) await ledger.post(tx);
  return { usd, thb, refund, settlementId };
}

/** Every line of the scope through the reader, newest first, page by page. */
async function everyLine(storage: StoragePorts, scope: AccountScope, filter: BalanceTransactionFilter = {}, limit = 3): Promise<BalanceTransaction[]> {
  const lines: BalanceTransaction[] = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await storage.balanceTransactions.list(scope, filter, { limit, ...(beforeSeq === undefined ? {} : { beforeSeq }) });
    for (const record of page.data) {
      const line = balanceTransactionOf(scope, record);
      if (!line) throw new Error(`the reader answered txn_${record.seq}, which moves none of the merchant's money`);
      lines.push(line);
    }
    if (!page.hasMore) return lines;
    beforeSeq = page.data.at(-1)?.seq;
  }
}

/** What every BalanceTransactionReader promises. */
export function balanceTransactionReaderContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} BalanceTransactionReader: ${what}`;

  test(title('one record per transaction that moves the merchant’s money, newest first, paged, with its payment and refund'), async (t) => {
    const scope = aScope();
    const { usd, thb, refund, settlementId } = await history(storage(), scope);
    await history(storage(), aScope());
    await history(storage(), { ...scope, mode: 'live' });
    const lines = await everyLine(storage(), scope);
    t.deepEqual(
      lines.map((line) => [line.type, line.source]),
      [
        ['settlement', settlementId],
        ['dispute_release', lines[1]?.source],
        ['dispute_hold', lines[1]?.source],
        ['refund_reversal', refund.id],
        ['refund', refund.id],
        ['payment', thb.id],
        ['release', usd.id],
        ['payment', usd.id],
      ],
      'the chargeback and the paid payout move platform money only',
    );
    t.true(lines.every((line, index) => index === 0 || line.seq < lines[index - 1].seq));
    const [usdPayment, thbPayment] = [lines[7], lines[5]];
    t.like(usdPayment, { amount: 325_000, fee: 5_000, net: 320_000, moves: { pending: 320_000 }, exchange: { amount: 10_000, currency: 'USD', rate: '32.5' } });
    t.deepEqual(usdPayment.availableOn, at(21), 'released: available from its release');
    t.deepEqual(thbPayment.availableOn, at(24 * 60), 'due: available when its release is due');
    t.is(thbPayment.exchange, undefined);
    t.like(lines[4], { amount: -65_000, fee: -1_000, net: -64_000, exchange: { amount: -2_000, currency: 'USD', rate: '32.5' } });
    t.like(lines[3], { amount: 65_000, fee: 1_000, net: 64_000, exchange: { amount: 2_000, currency: 'USD', rate: '32.5' } });
    t.is(lines[2]?.availableOn, undefined, 'a hold of pending money is not available');

    const first = lines[0];
    t.deepEqual(balanceTransactionOf(scope, (await storage().balanceTransactions.find(scope, first.seq))!), first);
    t.is(await storage().balanceTransactions.find(aScope(), first.seq), undefined, 'another merchant finds nothing');
    t.is(await storage().balanceTransactions.find({ ...scope, mode: 'live' }, first.seq), undefined, 'nor does the other mode');
    const all = await storage().balanceTransactions.list(scope, {}, { limit: 100 });
    t.false(all.hasMore);
    const seqs = new Set(all.data.map((record) => record.seq));
    for (let seq = first.seq; seq > first.seq - 30 && seq > 0; seq -= 1) {
      if (!seqs.has(seq)) t.is(await storage().balanceTransactions.find(scope, seq), undefined, `txn_${seq} is no line of the scope`);
    }
  });

  test(title('every filter keeps what core’s rule keeps, alone and combined'), async (t) => {
    const scope = aScope();
    const { usd, thb } = await history(storage(), scope);
    const lines = await everyLine(storage(), scope, {}, 100);
    const filters: BalanceTransactionFilter[] = [
      ...BALANCE_TRANSACTION_TYPES.map((type) => ({ type })),
      { paymentIntentId: usd.id },
      { paymentIntentId: thb.id, type: 'dispute_hold' },
      { currency: 'THB' },
      { currency: 'USD' },
      { settlementId: ids.settlement() },
      { createdGte: at(30) },
      { createdLte: at(30) },
      { createdGte: at(25), createdLte: at(41) },
      { availableOnGte: at(21) },
      { availableOnLte: at(21) },
      { availableOnGte: at(22), availableOnLte: at(24 * 60) },
      { availableOnGte: at(50), type: 'settlement' },
    ];
    for (const filter of filters) {
      const expected = lines.filter((line) => matchesBalanceTransactionFilter(line, filter));
      t.deepEqual(
        (await everyLine(storage(), scope, filter, 2)).map((line) => line.id),
        expected.map((line) => line.id),
        JSON.stringify(filter),
      );
    }
  });

  test(title('the nets of the lines sum to the balance, and each bucket’s moves to that bucket'), async (t) => {
    const scope = aScope();
    await history(storage(), scope);
    const lines = await everyLine(storage(), scope);
    const sums = { pending: 0n, available: 0n, dispute_hold: 0n };
    for (const line of lines) {
      t.is(line.amount - line.fee, line.net, line.id);
      for (const bucket of ['pending', 'available', 'dispute_hold'] as const) sums[bucket] += BigInt(line.moves[bucket]);
    }
    const balance = new Map((await storage().ledger.balances(scope)).map((row) => [row.account, row.balance]));
    for (const bucket of ['pending', 'available', 'dispute_hold'] as const)
      t.is(sums[bucket], balance.get(merchantAccount(scope, bucket, 'THB')) ?? 0n, bucket);
  });
}
