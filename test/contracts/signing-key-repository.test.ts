import { signingKeyRepositoryContract } from './signing-key-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) signingKeyRepositoryContract(adapter);
