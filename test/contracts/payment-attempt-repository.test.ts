import { paymentAttemptRepositoryContract } from './payment-attempt-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) paymentAttemptRepositoryContract(adapter);
