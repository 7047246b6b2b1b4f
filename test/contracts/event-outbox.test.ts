import { eventOutboxContract } from './event-outbox.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) eventOutboxContract(adapter);
