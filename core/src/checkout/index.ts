/** Hosted checkout: resolving a checkout token to its session, the page, paying and its state. */
export * from './use-cases/get-checkout-page.use-case';
export * from './use-cases/get-checkout-state.use-case';
export * from './use-cases/pay-checkout-session.use-case';
export * from './use-cases/resolve-checkout-session.use-case';
export * from './use-cases/simulate-checkout-payment.use-case';
