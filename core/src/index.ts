/** The pure core of the payment service, one module per capability; each module's index is its public face. */
export * from './catalog';
export * from './checkout';
export * from './dashboard';
export * from './disputes';
export * from './funds';
export * from './fx';
export * from './jobs';
export * from './ledger';
export * from './merchants';
export * from './payments';
export * from './reconciliation';
export * from './refunds';
export * from './settlements';
export * from './common';
export * from './storage-ports';
export * from './webhooks';
