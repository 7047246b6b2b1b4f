/** The pure core of the payment service, one module per capability; each module's index is its public face. */
export * from './shared';
export * from './jobs';
export * from './merchants';
export * from './payments';
export * from './fx';
export * from './ledger';
export * from './disputes';
export * from './settlements';
export * from './webhooks';
export * from './dashboard';
export * from './checkout';
export * from './storage-ports';
