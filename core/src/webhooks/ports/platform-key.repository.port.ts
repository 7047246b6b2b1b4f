import { token } from '../../common';
import type { PlatformKey } from '../domain/platform-key.entity';

export interface PlatformKeyRepository {
  /** Every key, oldest first. */
  list(): Promise<PlatformKey[]>;
  /** Stores a rotated key. */
  insert(key: PlatformKey): Promise<void>;
  /**
   * Stores `key` as the first key unless a first key exists already (concurrent callers: exactly
   * one wins); returns every key afterwards, oldest first.
   */
  insertFirst(key: PlatformKey): Promise<PlatformKey[]>;
}
export const PlatformKeyRepository = token<PlatformKeyRepository>('PlatformKeyRepository');
