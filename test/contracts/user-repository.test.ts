import { storageAdapters } from './storage-adapters';
import { userRepositoryContract } from './user-repository.contract';

for (const adapter of storageAdapters) userRepositoryContract(adapter);
