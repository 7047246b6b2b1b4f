import { storageAdapters } from './storage-adapters';
import { unitOfWorkContract } from './unit-of-work.contract';

for (const adapter of storageAdapters) unitOfWorkContract(adapter);
