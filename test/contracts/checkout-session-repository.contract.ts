import test from 'ava';
import { aCheckoutSession, aPaymentIntent, aScope, ids, T0 } from '../fixtures';
import { sharedStorage, type StorageAdapter } from './storage-adapters';

/** What every CheckoutSessionRepository promises. */
export function checkoutSessionRepositoryContract(adapter: StorageAdapter): void {
  const storage = sharedStorage(adapter);
  const title = (what: string): string => `${adapter.name} CheckoutSessionRepository: ${what}`;

  test(title('a session is found by its token digest, expired or not'), async (t) => {
    const { checkoutSessions } = storage();
    const intent = aPaymentIntent(aScope('live'));
    const session = aCheckoutSession(intent);
    const expired = aCheckoutSession(intent, { expiresAt: new Date(T0.getTime() - 1000) });
    await checkoutSessions.insert(session);
    await checkoutSessions.insert(expired);
    t.deepEqual(await checkoutSessions.findByTokenDigest(session.tokenDigest), session);
    t.deepEqual(await checkoutSessions.findByTokenDigest(expired.tokenDigest), expired);
  });

  test(title('an unknown digest is undefined'), async (t) => {
    t.is(await storage().checkoutSessions.findByTokenDigest(ids.digest()), undefined);
  });
}
