/** Merchant accounts: the merchant, API keys and their authentication, API versions, live mode and idempotent requests. */
export * from './domain/api-key.entity';
export * from './domain/api-version';
export * from './domain/merchant-settings';
export * from './domain/merchant.entity';
export * from './domain/request-key';
export * from './ports/api-key.repository.port';
export * from './ports/idempotency-store.port';
export * from './ports/merchant.repository.port';
export * from './use-cases/authenticate-api-key.use-case';
export * from './use-cases/issue-api-key.use-case';
export * from './use-cases/resolve-api-version.use-case';
export * from './use-cases/run-idempotently.use-case';
export * from './use-cases/set-live-mode.use-case';
