import { checkoutSessionRepositoryContract } from './checkout-session-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) checkoutSessionRepositoryContract(adapter);
