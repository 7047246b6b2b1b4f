export * from './bundled-fx-rate-source';
export * from './http-fx-rate-source';
export * from './rate-table';
export * from './reference-rates';
