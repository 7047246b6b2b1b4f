import { dashboardSessionRepositoryContract } from './dashboard-session-repository.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) dashboardSessionRepositoryContract(adapter);
