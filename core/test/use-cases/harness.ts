import { createInMemoryStorage, FakeClock, type InMemoryStorage } from '@payments/in-memory';
import { CryptoDigest, CryptoRandomSource, ScryptPasswordHasher } from '@payments/node-runtime';
import type { StatusChangeDeps } from '../../src/domain/payment-intent-status-change';
import type { PaymentChannelRegistry } from '../../src/ports/payment-channel.port';
import { CreateMerchant } from '../../src/use-cases/create-merchant/create-merchant.use-case';
import { IssueApiKey } from '../../src/use-cases/issue-api-key/issue-api-key.use-case';

/** Core wired to in-memory adapters and a fake clock, as each use-case test needs it. */
export function harness() {
  const storage: InMemoryStorage = createInMemoryStorage();
  const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
  const random = new CryptoRandomSource();
  const digest = new CryptoDigest();
  const statusChange: StatusChangeDeps = { intents: storage.intents, events: storage.events, webhookEndpoints: storage.webhookEndpoints, webhookDeliveries: storage.webhookDeliveries, clock, random };
  const issueApiKey = new IssueApiKey(storage.apiKeys, storage.merchants, clock, random, digest);
  const createMerchant = new CreateMerchant(
    storage.uow,
    storage.merchants,
    storage.users,
    issueApiKey,
    new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 }),
    clock,
    random,
  );
  let n = 0;
  const newMerchant = () => {
    n += 1;
    return createMerchant.execute({ name: `Shop ${n}`, email: `owner${n}@example.com`, password: 'a long enough password' });
  };
  const noChannels: PaymentChannelRegistry = { find: () => undefined, forMode: () => [] };
  return { storage, clock, random, digest, noChannels, statusChange, issueApiKey, createMerchant, newMerchant };
}
