/** A payment's money: the one module that moves it (booking, release, refunds, disputes, settlements). */
export * from './domain/payment-money';
export * from './ports/payment-disputes.port';
export * from './use-cases/payment-funds';
