/** FX and fees: mid rates, the spread, the fee schedule, quotes and the pricing of a payment. */
export * from './domain/fees';
export * from './domain/fx';
export * from './domain/fx-lock';
export * from './ports/fx-rate-source.port';
export * from './use-cases/payment-pricing';
export * from './use-cases/quote-fx.use-case';
