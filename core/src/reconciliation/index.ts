/** Reconciliation with the channels' statements: lines matched to the ledger's channel movements, breaks kept and cleared. */
export * from './domain/reconciliation';
export * from './ports/reconciliation-store.port';
export * from './use-cases/list-reconciliation-breaks.use-case';
export * from './use-cases/reconcile-channel.use-case';
