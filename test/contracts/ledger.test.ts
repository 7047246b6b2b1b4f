import { ledgerContract } from './ledger.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) ledgerContract(adapter);
