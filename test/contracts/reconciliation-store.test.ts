import { reconciliationStoreContract } from './reconciliation-store.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) reconciliationStoreContract(adapter);
