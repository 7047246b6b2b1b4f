import { token } from '../../common';
import type { SigningKey } from '../domain/signing-key.entity';

export interface SigningKeyRepository {
  /** Throws CoreError `signing_key_exists` (conflict) when the merchant registered this public key already. */
  insert(key: SigningKey): Promise<void>;
  /** The merchant's keys, newest first. */
  listByMerchant(merchantId: string): Promise<SigningKey[]>;
}
export const SigningKeyRepository = token<SigningKeyRepository>('SigningKeyRepository');
