import { jobItemFailuresContract } from './job-item-failures.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) jobItemFailuresContract(adapter);
