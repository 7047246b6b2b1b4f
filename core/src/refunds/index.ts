/** Refunds: money a merchant returns to a payer through the channel, booked against its balance. */
export * from './domain/refund.entity';
export * from './ports/refund.repository.port';
export * from './use-cases/create-refund.use-case';
export * from './use-cases/get-refund.use-case';
export * from './use-cases/reconcile-refunds.use-case';
export * from './use-cases/record-refund-notice.use-case';
export * from './use-cases/record-refund-report.use-case';
export * from './use-cases/refund-events';
export * from './use-cases/simulate-refund.use-case';
