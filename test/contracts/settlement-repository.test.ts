import { settlementRepositoryContract } from './settlement-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) settlementRepositoryContract(adapter);
