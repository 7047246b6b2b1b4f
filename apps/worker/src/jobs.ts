import type { AppContainer } from '@payments/api';
import { Clock, ExpirePaymentIntents, IdempotencyStore } from '@payments/core';
import type { Job } from './scheduler';

/** The worker's periodic jobs. Later issues add settlement batches and the webhook relay. */
export function workerJobs(app: AppContainer): Job[] {
  const expire = app.get(ExpirePaymentIntents);
  const idempotency = app.get<IdempotencyStore>(IdempotencyStore);
  const clock = app.get<Clock>(Clock);
  return [
    { name: 'expire-payment-intents', everyMs: 0, run: () => expire.execute({ limit: 200 }) },
    { name: 'purge-idempotency-keys', everyMs: 60_000, run: () => idempotency.purgeExpired(clock.now()) },
  ];
}
