export * from './jobs';
export * from './scheduler';
export * from './observability';
