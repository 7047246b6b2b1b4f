export * from './jobs';
export * from './scheduler';
