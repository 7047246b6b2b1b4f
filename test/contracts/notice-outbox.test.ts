import { noticeOutboxContract } from './notice-outbox.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) noticeOutboxContract(adapter);
