import { disputeRepositoryContract } from './dispute-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) disputeRepositoryContract(adapter);
