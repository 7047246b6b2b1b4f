export * from './callback-signature';
export * from './knex-simulator-callbacks';
export * from './knex-simulator-order-book';
export * from './simulator-order-book';
export * from './simulator-payment-channel';
export * from './simulated-payout-gateway';
export * from './knex-simulator-refunds';
