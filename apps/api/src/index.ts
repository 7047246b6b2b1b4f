export * from './config';
export * from './container';
export * from './logger';
export * from './server';
export * from './http/error-envelope';
export * from './demo-merchant';
export * from './start';
