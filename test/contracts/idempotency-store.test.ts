import { idempotencyStoreContract } from './idempotency-store.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) idempotencyStoreContract(adapter);
