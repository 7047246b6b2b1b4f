import { paymentIntentRepositoryContract } from './payment-intent-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) paymentIntentRepositoryContract(adapter);
