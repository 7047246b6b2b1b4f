import { apiKeyRepositoryContract } from './api-key-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) apiKeyRepositoryContract(adapter);
