import test from 'ava';
import { aPayoutDestination, aScope, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

const later = (ms: number): Date => new Date(T0.getTime() + ms);

/** What every PayoutDestinationRepository promises. */
export function payoutDestinationRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} PayoutDestinationRepository: ${what}`;

  test(title('a destination reads back field for field, within its merchant and mode only'), async (t) => {
    const { payoutDestinations } = storage();
    const scope = aScope('live');
    const destination = aPayoutDestination(scope, { holdUntil: later(86_400_000) });
    await payoutDestinations.insert(destination);
    t.deepEqual(await payoutDestinations.findById(scope, destination.id), destination);
    t.is(await payoutDestinations.findById({ ...scope, mode: 'test' }, destination.id), undefined, 'another mode');
    t.is(await payoutDestinations.findById(aScope('live'), destination.id), undefined, 'another merchant');
    const plain = aPayoutDestination(scope);
    await payoutDestinations.insert(plain);
    const read = await payoutDestinations.findById(scope, plain.id);
    t.false(read !== undefined && 'holdUntil' in read, 'no hold property, not an undefined one');
  });

  test(title('list is newest first and per mode'), async (t) => {
    const { payoutDestinations } = storage();
    const scope = aScope('test');
    const first = aPayoutDestination(scope);
    const second = aPayoutDestination(scope);
    const otherMode = aPayoutDestination({ ...scope, mode: 'live' });
    for (const destination of [first, second, otherMode]) await payoutDestinations.insert(destination);
    t.deepEqual(
      (await payoutDestinations.list(scope)).map((d) => d.id),
      [second.id, first.id],
    );
    t.deepEqual(
      (await payoutDestinations.list({ ...scope, mode: 'live' })).map((d) => d.id),
      [otherMode.id],
    );
    t.deepEqual(await payoutDestinations.list(aScope('test')), []);
  });

  test(title('makeDefault moves the one default of the scope, sets the hold when given, and leaves other modes alone'), async (t) => {
    const { payoutDestinations, uow } = storage();
    const scope = aScope('live');
    const a = aPayoutDestination(scope, { status: 'verified', isDefault: true });
    const b = aPayoutDestination(scope, { status: 'verified' });
    const testDefault = aPayoutDestination({ ...scope, mode: 'test' }, { isDefault: true });
    for (const destination of [a, b, testDefault]) await payoutDestinations.insert(destination);
    t.is((await payoutDestinations.findDefault(scope))?.id, a.id);

    const made = await uow.run((transaction) => transaction.bind(payoutDestinations).makeDefault(scope, b.id, later(1000)));
    t.deepEqual(made, { ...b, isDefault: true, holdUntil: later(1000) });
    t.is((await payoutDestinations.findDefault(scope))?.id, b.id);
    t.false((await payoutDestinations.findById(scope, a.id))?.isDefault);
    t.is((await payoutDestinations.findDefault({ ...scope, mode: 'test' }))?.id, testDefault.id);

    // Without a hold, the one it had stays; outside a unit of work it is still one change.
    const back = await payoutDestinations.makeDefault(scope, a.id, undefined);
    t.true(back?.isDefault);
    t.false(back !== undefined && 'holdUntil' in back);
    const again = await payoutDestinations.makeDefault(scope, b.id, undefined);
    t.deepEqual(again?.holdUntil, later(1000));
    t.is((await payoutDestinations.list(scope)).filter((d) => d.isDefault).length, 1);
    t.is(await payoutDestinations.makeDefault(scope, aPayoutDestination(scope).id, undefined), undefined, 'unknown id');
    t.is(await payoutDestinations.makeDefault({ ...scope, mode: 'test' }, a.id, undefined), undefined, 'another mode');
  });

  test(title('concurrent default changes leave exactly one default'), async (t) => {
    const { payoutDestinations, uow } = storage();
    const scope = aScope('live');
    const destinations = Array.from({ length: 4 }, () => aPayoutDestination(scope, { status: 'verified' }));
    for (const destination of destinations) await payoutDestinations.insert(destination);
    await Promise.all(destinations.map((d) => uow.run((transaction) => transaction.bind(payoutDestinations).makeDefault(scope, d.id, later(5000)))));
    t.is((await payoutDestinations.list(scope)).filter((d) => d.isDefault).length, 1);
  });

  test(title('latestHold is the latest hold of the scope, undefined without any'), async (t) => {
    const { payoutDestinations } = storage();
    const scope = aScope('live');
    t.is(await payoutDestinations.latestHold(scope), undefined);
    await payoutDestinations.insert(aPayoutDestination(scope));
    t.is(await payoutDestinations.latestHold(scope), undefined);
    await payoutDestinations.insert(aPayoutDestination(scope, { holdUntil: later(2000) }));
    await payoutDestinations.insert(aPayoutDestination(scope, { holdUntil: later(1000) }));
    await payoutDestinations.insert(aPayoutDestination({ ...scope, mode: 'test' }, { holdUntil: later(9000) }));
    t.deepEqual(await payoutDestinations.latestHold(scope), later(2000));
  });
}
