/** Settlements and payouts: batching available funds, paying them to a payout destination, the destinations themselves. */
export * from './domain/payout-destination.entity';
export * from './domain/settlement-period';
export * from './domain/settlement.entity';
export * from './ports/payout-destination.repository.port';
export * from './ports/payout-gateway.port';
export * from './ports/settlement.repository.port';
export * from './use-cases/create-manual-settlement.use-case';
export * from './use-cases/create-scheduled-settlements.use-case';
export * from './use-cases/get-settlement.use-case';
export * from './use-cases/list-payout-destinations.use-case';
export * from './use-cases/list-settlements.use-case';
export * from './use-cases/pay-settlement.use-case';
export * from './use-cases/payout-notice';
export * from './use-cases/register-payout-destination.use-case';
export * from './use-cases/set-default-payout-destination.use-case';
export * from './use-cases/settlement-batch';
export * from './use-cases/verify-payout-destinations.use-case';
