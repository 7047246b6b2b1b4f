export * from './fake-clock';
