import test from 'ava';
import type { JobItemFailure } from '@payments/core';
import { T0 } from '../fixtures';
import { withOwnStorage, type StorageAdapter } from './storage-adapters';

const at = (ms: number): Date => new Date(T0.getTime() + ms);

function aFailure(overrides: Partial<JobItemFailure> = {}): JobItemFailure {
  return {
    job: 'report-channel-settlements',
    lane: 'test',
    itemId: 'pi_ITEM',
    errorCode: 'ledger_unbalanced',
    errorMessage: 'Ledger transaction payment:pi_ITEM refused: fewer than two entries.',
    attempts: 1,
    firstFailedAt: at(0),
    lastFailedAt: at(0),
    nextTryAt: at(10_000),
    ...overrides,
  };
}

/** What every JobItemFailures promises. */
export function jobItemFailuresContract(adapter: StorageAdapter): void {
  const title = (what: string): string => `${adapter.name} JobItemFailures: ${what}`;

  test(title('a failure reads back field for field, by job and lane; saving again replaces it'), async (t) => {
    await withOwnStorage(adapter, async ({ jobItemFailures }) => {
      const first = aFailure();
      await jobItemFailures.save(first);
      await jobItemFailures.save(aFailure({ lane: 'live', itemId: 'pi_LIVE' }));
      await jobItemFailures.save(aFailure({ job: 'release-funds', itemId: 'pi_OTHER' }));
      t.deepEqual(await jobItemFailures.forJob('report-channel-settlements', 'test'), [first]);
      const second = aFailure({ attempts: 2, lastFailedAt: at(10_000), nextTryAt: at(30_000), errorCode: 'Error' });
      const { errorMessage: _dropped, ...withoutMessage } = second;
      void _dropped;
      await jobItemFailures.save(withoutMessage);
      t.deepEqual(
        await jobItemFailures.forJob('report-channel-settlements', 'test'),
        [withoutMessage],
        'one record per job and item; no message when none is given',
      );
    });
  });

  test(title("clear forgets one job's record of an item, not another job's"), async (t) => {
    await withOwnStorage(adapter, async ({ jobItemFailures }) => {
      await jobItemFailures.save(aFailure());
      await jobItemFailures.save(aFailure({ job: 'release-funds' }));
      await jobItemFailures.clear('report-channel-settlements', 'pi_ITEM');
      t.deepEqual(await jobItemFailures.forJob('report-channel-settlements', 'test'), []);
      t.is((await jobItemFailures.forJob('release-funds', 'test')).length, 1);
    });
  });

  test(title('list is most recent failure first, up to the limit; countWaiting counts only items not due yet'), async (t) => {
    await withOwnStorage(adapter, async ({ jobItemFailures }) => {
      await jobItemFailures.save(aFailure({ itemId: 'pi_A', lastFailedAt: at(1), nextTryAt: at(100) }));
      await jobItemFailures.save(aFailure({ itemId: 'pi_B', lastFailedAt: at(3), nextTryAt: at(100) }));
      await jobItemFailures.save(aFailure({ itemId: 'pi_C', lastFailedAt: at(2), nextTryAt: at(5) }));
      await jobItemFailures.save(aFailure({ job: 'pay-settlements', lane: 'live', itemId: 'st_D', lastFailedAt: at(0), nextTryAt: at(100) }));
      t.deepEqual(
        (await jobItemFailures.list(10)).map((f) => f.itemId),
        ['pi_B', 'pi_C', 'pi_A', 'st_D'],
      );
      t.deepEqual(
        (await jobItemFailures.list(2)).map((f) => f.itemId),
        ['pi_B', 'pi_C'],
      );
      const waiting = (await jobItemFailures.countWaiting(at(10))).sort((a, b) => a.job.localeCompare(b.job));
      t.deepEqual(waiting, [
        { job: 'pay-settlements', lane: 'live', count: 1 },
        { job: 'report-channel-settlements', lane: 'test', count: 2 },
      ]);
    });
  });

  test(title('retryNow makes every record of the item due now and says how many it touched'), async (t) => {
    await withOwnStorage(adapter, async ({ jobItemFailures }) => {
      await jobItemFailures.save(aFailure({ nextTryAt: at(3_600_000) }));
      await jobItemFailures.save(aFailure({ job: 'release-funds', nextTryAt: at(3_600_000) }));
      t.is(await jobItemFailures.retryNow('pi_ITEM', at(50)), 2);
      t.is(await jobItemFailures.retryNow('pi_NONE', at(50)), 0);
      const [record] = await jobItemFailures.forJob('report-channel-settlements', 'test');
      t.deepEqual(record?.nextTryAt, at(50));
      t.is(record?.attempts, 1, 'a retry is not a failure');
    });
  });
}
