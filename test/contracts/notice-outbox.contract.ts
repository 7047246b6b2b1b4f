import test from 'ava';
import { aNotice, ids, T0 } from '../fixtures';
import { sharedStorage, withOwnStorage, type StorageAdapter } from './storage-adapters';

const later = (ms: number): Date => new Date(T0.getTime() + ms);

/** What every NoticeOutbox promises. */
export function noticeOutboxContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} NoticeOutbox: ${what}`;

  test(title("a notice reads back field for field; the merchant's list is newest first"), async (t) => {
    const { notices } = storage();
    const merchantId = ids.merchant();
    const first = aNotice(merchantId);
    const second = aNotice(merchantId, {
      kind: 'payout_destination.default_changed',
      details: { destination: 'pd_x', hold_until: '2026-09-02T00:00:00.000Z' },
    });
    await notices.append(first);
    await notices.append(second);
    await notices.append(aNotice());
    t.deepEqual(await notices.listForMerchant(merchantId, 10), [second, first]);
    t.deepEqual(await notices.listForMerchant(merchantId, 1), [second]);
    const [read] = await notices.listForMerchant(merchantId, 1);
    t.false(read !== undefined && 'sentAt' in read);
  });

  test(title('pending is oldest first up to the limit; markSent takes a notice out once'), async (t) => {
    await withOwnStorage(adapter, async ({ notices }) => {
      const batch = [aNotice(), aNotice(), aNotice()];
      for (const notice of batch) await notices.append(notice);
      t.deepEqual(
        (await notices.pending(2)).map((n) => n.id),
        [batch[0]?.id, batch[1]?.id],
      );
      t.true(await notices.markSent(batch[0]?.id, later(1000)));
      t.false(await notices.markSent(batch[0]?.id, later(2000)), 'already sent');
      t.false(await notices.markSent('ntc_UNKNOWN', later(2000)));
      t.deepEqual(
        (await notices.pending(10)).map((n) => n.id),
        [batch[1]?.id, batch[2]?.id],
      );
      const [sent] = await notices.listForMerchant(batch[0]?.merchantId, 1);
      t.deepEqual(sent?.sentAt, later(1000), 'the first time stays');
    });
  });

  test(title('claim leases an unsent notice to one caller until its lease ends; a sent one is never leased'), async (t) => {
    const { notices } = storage();
    const notice = aNotice();
    await notices.append(notice);
    const leases = await Promise.all(Array.from({ length: 5 }, () => notices.claim(notice.id, later(0), later(60_000))));
    t.is(leases.filter(Boolean).length, 1, 'one of five callers at once');
    t.false(await notices.claim(notice.id, later(59_999), later(120_000)), 'not while the lease runs');
    t.true(await notices.claim(notice.id, later(60_000), later(120_000)), 'once it ran out');
    t.true(await notices.markSent(notice.id, later(61_000)));
    t.false(await notices.claim(notice.id, later(200_000), later(260_000)));
    t.false(await notices.claim('ntc_unknown', later(0), later(60_000)));
  });

  test(title('release gives up only the lease it names'), async (t) => {
    const { notices } = storage();
    const notice = aNotice();
    await notices.append(notice);
    t.true(await notices.claim(notice.id, later(0), later(60_000)));
    await notices.release(notice.id, later(59_000));
    t.false(await notices.claim(notice.id, later(1_000), later(61_000)), 'another lease is untouched');
    await notices.release(notice.id, later(60_000));
    t.true(await notices.claim(notice.id, later(1_000), later(61_000)));
  });

  test(title('a notice appended in a unit of work that fails is gone with it'), async (t) => {
    const { notices, uow } = storage();
    const notice = aNotice();
    await t.throwsAsync(
      uow.run(async (transaction) => {
        await transaction.bind(notices).append(notice);
        throw new Error('the change failed');
      }),
    );
    t.deepEqual(await notices.listForMerchant(notice.merchantId, 10), []);
  });
}
