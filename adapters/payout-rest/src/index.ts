export * from './payout-protocol';
export * from './request-signature';
export * from './rest-payout-gateway';
