/** The double-entry ledger and the balance read from it; releasing held funds. */
export * from './domain/ledger';
export * from './domain/ledger-postings';
export * from './ports/ledger.port';
export * from './use-cases/get-balance.use-case';
export * from './use-cases/verify-ledger.use-case';
