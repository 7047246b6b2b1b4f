export * from './stripe-ids';
export * from './stripe-mapping';
export * from './stripe-payment-channel';
export * from './stripe-statement';
