export * from './channel-contract';
export * from './contract-subject';
export * from './nock-helpers';
