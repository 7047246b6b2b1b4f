/** Disputes: reports from the channel, the hold and the loss, evidence and reconciliation. */
export * from './domain/dispute.entity';
export * from './ports/dispute.repository.port';
export * from './use-cases/payment-disputes';
export * from './use-cases/dispute-events';
export * from './use-cases/get-dispute.use-case';
export * from './use-cases/list-disputes.use-case';
export * from './use-cases/payment-money-statuses.use-case';
export * from './use-cases/reconcile-disputes.use-case';
export * from './use-cases/record-dispute-report.use-case';
export * from './use-cases/submit-dispute-evidence.use-case';
