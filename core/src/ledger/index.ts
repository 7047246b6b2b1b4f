/** The double-entry ledger and the balance read from it; releasing held funds. */
export * from './domain/balance-transaction';
export * from './domain/ledger';
export * from './domain/ledger-postings';
export * from './ports/balance-transaction-reader.port';
export * from './ports/ledger.port';
export * from './use-cases/get-balance.use-case';
export * from './use-cases/get-balance-transaction.use-case';
export * from './use-cases/list-balance-transactions.use-case';
export * from './use-cases/verify-ledger.use-case';
