export * from './commands';
