import { payoutDestinationRepositoryContract } from './payout-destination-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) payoutDestinationRepositoryContract(adapter);
