import { storageAdapters } from './storage-adapters';
import { webhookEndpointRepositoryContract } from './webhook-endpoint-repository.contract';

for (const adapter of storageAdapters) webhookEndpointRepositoryContract(adapter);
