import { merchantRepositoryContract } from './merchant-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) merchantRepositoryContract(adapter);
