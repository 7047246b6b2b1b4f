import test from 'ava';
import { createInMemoryStorage } from '@payments/in-memory';
import { CoreError } from '../../src/common/core-error';
import { paymentMovePosting, paymentPosting, settlementCreatedPosting } from '../../src/ledger/domain/ledger-postings';
import { GetBalanceTransaction } from '../../src/ledger/use-cases/get-balance-transaction.use-case';
import { ListBalanceTransactions } from '../../src/ledger/use-cases/list-balance-transactions.use-case';

const NOW = new Date('2026-11-01T00:00:00Z');
const scope = { merchantId: 'mch_A', mode: 'test' as const };
const other = { merchantId: 'mch_B', mode: 'test' as const };

async function booked() {
  const storage = createInMemoryStorage();
  const thb = (amount: number) => ({ amount, currency: 'THB' });
  await storage.ledger.post(paymentPosting({ id: 'pi_1', ...scope, net: thb(9_835), fee: thb(165) }, NOW));
  await storage.ledger.post(paymentPosting({ id: 'pi_2', ...other, net: thb(500), fee: thb(5) }, NOW));
  await storage.ledger.post(
    paymentMovePosting(
      { causeType: 'release', causeId: 'pi_1', scope, paymentIntentId: 'pi_1', currency: 'THB', merchant: { pending: -9_835, available: 9_835 } },
      NOW,
    ),
  );
  await storage.ledger.post(settlementCreatedPosting({ settlementId: 'st_A', scope, amount: thb(9_835) }, NOW));
  const deps = { balanceTransactions: storage.balanceTransactions };
  return { list: new ListBalanceTransactions(deps), get: new GetBalanceTransaction(deps) };
}

test('lists the scope’s lines newest first, page after page from the cursor', async (t) => {
  const { list } = await booked();
  const first = await list.execute({ scope, filter: {}, page: { limit: 2 } });
  t.deepEqual(
    first.data.map((line) => [line.id, line.type]),
    [
      ['txn_4', 'settlement'],
      ['txn_3', 'release'],
    ],
  );
  t.true(first.hasMore);
  const next = await list.execute({ scope, filter: {}, page: { limit: 2, startingAfter: 'txn_3' } });
  t.deepEqual(
    next.data.map((line) => line.id),
    ['txn_1'],
  );
  t.false(next.hasMore);
  t.deepEqual(
    (await list.execute({ scope: other, filter: {}, page: { limit: 10 } })).data.map((line) => line.id),
    ['txn_2'],
  );
});

test('a cursor that is no line of the scope is 400 on starting_after', async (t) => {
  const { list } = await booked();
  for (const cursor of ['txn_2', 'txn_99', 'txn_0', 'pi_1']) {
    const error = await t.throwsAsync(list.execute({ scope, filter: {}, page: { limit: 2, startingAfter: cursor } }), { instanceOf: CoreError });
    t.like(error, { code: 'invalid_parameter', param: 'starting_after' }, cursor);
  }
});

test('gets a line of the scope; another merchant’s, another mode’s or an unknown one is 404', async (t) => {
  const { get } = await booked();
  t.like(await get.execute({ scope, id: 'txn_3' }), { type: 'release', net: 0 });
  for (const [who, id] of [
    [scope, 'txn_2'],
    [{ ...scope, mode: 'live' as const }, 'txn_3'],
    [scope, 'txn_99'],
    [scope, 'txn_x'],
  ] as const) {
    const error = await t.throwsAsync(get.execute({ scope: who, id }), { instanceOf: CoreError });
    t.like(error, { code: 'resource_not_found' }, id);
  }
});
