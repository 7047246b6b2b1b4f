import test from 'ava';
import type { DashboardSession } from '@payments/core';
import { ids, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

const MINUTE = 60_000;

function aSession(overrides: Partial<DashboardSession> = {}): DashboardSession {
  return {
    id: `dss_${ids.token()}`,
    tokenDigest: ids.digest(),
    userId: ids.user(),
    merchantId: ids.merchant(),
    created: T0,
    expiresAt: new Date(T0.getTime() + 30 * MINUTE),
    ...overrides,
  };
}

/** What every DashboardSessionRepository promises. */
export function dashboardSessionRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} DashboardSessionRepository: ${what}`;

  test(title('a session is found by its token digest, and by nothing else'), async (t) => {
    const { dashboardSessions } = storage();
    const session = aSession();
    await dashboardSessions.insert(session);
    t.deepEqual(await dashboardSessions.findByTokenDigest(session.tokenDigest), session);
    t.is(await dashboardSessions.findByTokenDigest(ids.digest()), undefined);
    t.is(await dashboardSessions.findByTokenDigest(session.id), undefined);
  });

  test(title('end marks the session ended once; the first end is kept'), async (t) => {
    const { dashboardSessions } = storage();
    const session = aSession();
    await dashboardSessions.insert(session);
    const first = new Date(T0.getTime() + MINUTE);
    await dashboardSessions.end(session.merchantId, session.id, first);
    await dashboardSessions.end(session.merchantId, session.id, new Date(T0.getTime() + 2 * MINUTE));
    t.deepEqual(await dashboardSessions.findByTokenDigest(session.tokenDigest), { ...session, ended: first });
  });

  test(title("another merchant's id ends nothing"), async (t) => {
    const { dashboardSessions } = storage();
    const session = aSession();
    await dashboardSessions.insert(session);
    await dashboardSessions.end(ids.merchant(), session.id, T0);
    t.is((await dashboardSessions.findByTokenDigest(session.tokenDigest))?.ended, undefined);
  });

  test(title("endAllForUser ends that user's open sessions only"), async (t) => {
    const { dashboardSessions } = storage();
    const merchantId = ids.merchant();
    const userId = ids.user();
    const ended = aSession({ merchantId, userId, ended: new Date(T0.getTime() + MINUTE) });
    const open = [aSession({ merchantId, userId }), aSession({ merchantId, userId })];
    const colleague = aSession({ merchantId });
    for (const session of [ended, ...open, colleague]) await dashboardSessions.insert(session);
    const at = new Date(T0.getTime() + 5 * MINUTE);
    t.is(await dashboardSessions.endAllForUser(merchantId, userId, at), 2);
    for (const session of open) t.deepEqual((await dashboardSessions.findByTokenDigest(session.tokenDigest))?.ended, at);
    t.deepEqual((await dashboardSessions.findByTokenDigest(ended.tokenDigest))?.ended, ended.ended, 'an earlier end is kept');
    t.is((await dashboardSessions.findByTokenDigest(colleague.tokenDigest))?.ended, undefined);
    t.is(await dashboardSessions.endAllForUser(ids.merchant(), userId, at), 0, 'scoped by merchant');
  });

  test(title('deleteExpiredBefore drops sessions that expired before the cutoff'), async (t) => {
    const { dashboardSessions } = storage();
    // Far in the past, so sessions of other tests sharing this storage are never touched.
    const old = aSession({ created: new Date(0), expiresAt: new Date(1_000) });
    const recent = aSession({ created: new Date(0), expiresAt: new Date(5_000) });
    await dashboardSessions.insert(old);
    await dashboardSessions.insert(recent);
    t.is(await dashboardSessions.deleteExpiredBefore(new Date(2_000)), 1);
    t.is(await dashboardSessions.findByTokenDigest(old.tokenDigest), undefined);
    t.truthy(await dashboardSessions.findByTokenDigest(recent.tokenDigest));
  });

  test(title('a unit of work that throws leaves no session behind'), async (t) => {
    const { uow, dashboardSessions } = storage();
    const session = aSession();
    await t.throwsAsync(
      uow.run(async (transaction) => {
        await transaction.bind(dashboardSessions).insert(session);
        throw new Error('rolled back');
      }),
    );
    t.is(await dashboardSessions.findByTokenDigest(session.tokenDigest), undefined);
  });
}
