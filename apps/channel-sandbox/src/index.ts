export * from './sandbox';
export * from './sandbox-config';
