export * from './redis-client';
export * from './redis-lock-manager';
export * from './redis-rate-limiter';
export * from './redis-failure-counter';
