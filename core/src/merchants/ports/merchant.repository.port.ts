import { token } from '../../common';
import type { MerchantSettingsChange } from '../domain/merchant-settings';
import type { Merchant, SettlementSchedule } from '../domain/merchant.entity';

export interface MerchantRepository {
  insert(merchant: Merchant): Promise<void>;
  findById(id: string): Promise<Merchant | undefined>;
  /** True when no merchant exists yet (first start of an empty database). */
  isEmpty(): Promise<boolean>;
  /**
   * Pins the account to `version` unless it is pinned already; returns the version the account
   * is pinned to afterwards (the first writer wins under concurrency).
   */
  pinApiVersion(id: string, version: string): Promise<string>;
  /**
   * Applies the fields present in `change` (null clears an optional one) and leaves the others
   * as they are; returns the merchant afterwards, or undefined for an unknown merchant.
   */
  updateSettings(id: string, change: MerchantSettingsChange): Promise<Merchant | undefined>;
  /** Opens or closes live mode (the review). Returns false for an unknown merchant. */
  setLiveEnabled(id: string, enabled: boolean): Promise<boolean>;
  /**
   * Merchants on one of `schedules`, ordered by id, after `afterId` when given, at most `limit`:
   * the scheduled-settlement job pages through them.
   */
  listBySchedule(schedules: readonly SettlementSchedule[], page: { readonly afterId?: string; readonly limit: number }): Promise<Merchant[]>;
}
export const MerchantRepository = token<MerchantRepository>('MerchantRepository');
