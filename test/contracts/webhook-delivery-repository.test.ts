import { webhookDeliveryRepositoryContract } from './webhook-delivery-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) webhookDeliveryRepositoryContract(adapter);
