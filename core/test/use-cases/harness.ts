import { createInMemoryStorage, FakeClock, type InMemoryStorage } from '@payments/in-memory';
import { CryptoDigest, CryptoRandomSource, ScryptPasswordHasher } from '@payments/node-runtime';
import { Decimal } from 'decimal.js';
import { DEFAULT_FEE_SCHEDULE } from '../../src/fx/domain/fees';
import { PaymentPricing } from '../../src/fx/use-cases/payment-pricing';
import type { StatusChangeDeps } from '../../src/payments/use-cases/payment-intent-status-change';
import type { FxRateSource } from '../../src/fx/ports/fx-rate-source.port';
import type { PaymentChannelRegistry } from '../../src/payments/ports/payment-channel.port';
import { CreateMerchant } from '../../src/merchants/use-cases/create-merchant.use-case';
import { IssueApiKey } from '../../src/merchants/use-cases/issue-api-key.use-case';
import type { ItemJob } from '../../src/jobs/use-cases/item-job';
import { RunItemJobs } from '../../src/jobs/use-cases/run-item-jobs.use-case';

/** Units of each catalog currency per USD (the bundled reference table's figures); `down` makes the source fail. */
export class TestRates implements FxRateSource {
  down = false;
  readonly perUsd: Record<string, string> = { USD: '1', THB: '32.54', SGD: '1.274', MYR: '4.2135', PHP: '56.33', IDR: '16235' };

  async midRate(from: string, to: string): Promise<string> {
    const a = this.perUsd[from];
    const b = this.perUsd[to];
    if (this.down || a === undefined || b === undefined) throw new Error('no rate');
    return new Decimal(b).dividedBy(a).toSignificantDigits(20).toFixed();
  }
}

/** Core wired to in-memory adapters and a fake clock, as each use-case test needs it. */
export function harness() {
  const storage: InMemoryStorage = createInMemoryStorage();
  const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
  const random = new CryptoRandomSource();
  const digest = new CryptoDigest();
  const statusChange: StatusChangeDeps = { intents: storage.intents, events: storage.events, webhookEndpoints: storage.webhookEndpoints, webhookDeliveries: storage.webhookDeliveries, clock, random };
  const issueApiKey = new IssueApiKey({ keys: storage.apiKeys, merchants: storage.merchants, clock, random, digest });
  const createMerchant = new CreateMerchant({
        uow: storage.uow,
        merchants: storage.merchants,
        users: storage.users,
        issueApiKey,
        passwords: new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 }),
        clock,
        random,
      });
  let n = 0;
  const newMerchant = () => {
    n += 1;
    return createMerchant.execute({ name: `Shop ${n}`, email: `owner${n}@example.com`, password: 'a long enough password' });
  };
  const noChannels: PaymentChannelRegistry = { find: () => undefined, forMode: () => [] };
  const rates = new TestRates();
  const pricing = new PaymentPricing({ rates, settings: { spreadBps: 50, fees: DEFAULT_FEE_SCHEDULE }, clock });
  const jobs = new RunItemJobs({ failures: storage.jobItemFailures, clock });
  /** One pass of a background job over each of its lanes, through the runner the worker uses. */
  const runJob = <T, R>(job: ItemJob<T, R>, limit: number) => jobs.runEveryLane(job, limit);
  return { storage, clock, random, digest, noChannels, rates, pricing, statusChange, issueApiKey, createMerchant, newMerchant, runJob };
}
