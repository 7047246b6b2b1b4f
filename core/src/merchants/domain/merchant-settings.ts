import { invalidParameter, isOneOf, validateLabel } from '../../common';
import { SETTLEMENT_SCHEDULES, type SettlementSchedule } from './merchant.entity';

/**
 * The four settings a merchant changes itself (docs/dashboard.md, Settings): `business_name` is the
 * account's name, and `null` clears the two optional ones. Status, KYB status, settlement currency
 * and delay are operator-set and no field here can reach them.
 */
export interface MerchantSettingsChange {
  readonly name?: string;
  readonly supportEmail?: string | null;
  readonly statementDescriptor?: string | null;
  readonly settlementSchedule?: SettlementSchedule;
}

/** What the caller sent, before it is checked. */
export interface MerchantSettingsInput {
  readonly businessName?: string;
  readonly supportEmail?: string | null;
  readonly statementDescriptor?: string | null;
  readonly settlementSchedule?: string;
}

export const MERCHANT_SETTINGS_LIMITS = { businessName: 200, supportEmail: 254, statementDescriptor: { min: 5, max: 22 } } as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Card-network style: letters, digits, spaces and a few marks; at least one letter. */
const DESCRIPTOR = /^[A-Za-z0-9 .,&/#+()-]+$/;

/** Checks each field present; throws 400 naming the first bad field (without repeating its value). */
export function validateMerchantSettings(input: MerchantSettingsInput): MerchantSettingsChange {
  const change: { -readonly [K in keyof MerchantSettingsChange]: MerchantSettingsChange[K] } = {};
  if (input.businessName !== undefined) change.name = validateLabel(input.businessName, 'business_name', MERCHANT_SETTINGS_LIMITS.businessName);
  if (input.supportEmail !== undefined) {
    if (input.supportEmail !== null && (!EMAIL.test(input.supportEmail) || input.supportEmail.length > MERCHANT_SETTINGS_LIMITS.supportEmail)) {
      throw invalidParameter('support_email', 'support_email must be an email address (or null to clear it).');
    }
    change.supportEmail = input.supportEmail;
  }
  if (input.statementDescriptor !== undefined) {
    const value = input.statementDescriptor;
    const { min, max } = MERCHANT_SETTINGS_LIMITS.statementDescriptor;
    if (value !== null && (value.length < min || value.length > max || !DESCRIPTOR.test(value) || !/[A-Za-z]/.test(value) || value.trim() !== value)) {
      throw invalidParameter(
        'statement_descriptor',
        `statement_descriptor must be ${min} to ${max} characters of letters, digits, spaces and . , & / # + ( ) -, with at least one letter (or null to clear it).`,
      );
    }
    change.statementDescriptor = value;
  }
  if (input.settlementSchedule !== undefined) {
    if (!isOneOf(SETTLEMENT_SCHEDULES, input.settlementSchedule)) {
      throw invalidParameter('settlement_schedule', `settlement_schedule must be one of ${SETTLEMENT_SCHEDULES.join(', ')}.`);
    }
    change.settlementSchedule = input.settlementSchedule;
  }
  return change;
}
