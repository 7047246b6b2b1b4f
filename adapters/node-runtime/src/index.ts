export * from './crypto-digest';
export * from './crypto-random-source';
export * from './scrypt-password-hasher';
export * from './system-clock';
export * from './aes-gcm-secret-box';
export * from './crypto-ed25519-key-check';
export * from './crypto-webhook-crypto';
export * from './bounded-body';
