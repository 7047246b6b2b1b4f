export * from './callback-signature';
export * from './create-rest-channel';
export * from './rest-payment-channel';
export { MAX_ANSWER_BYTES } from './http-client';
