export * from './omise-api';
export * from './omise-ids';
export * from './omise-mapping';
export * from './omise-payment-channel';
export * from './omise-statement';
