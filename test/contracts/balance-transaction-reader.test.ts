import { balanceTransactionReaderContract } from './balance-transaction-reader.contract';
import { storageAdapters } from './storage-adapters';

for (const adapter of storageAdapters) balanceTransactionReaderContract(adapter);
