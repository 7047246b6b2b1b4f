import type { Mode } from '../../common';
import { invalidParameter, isKnownCurrency, validateLabel } from '../../common';

export type PayoutDestinationType = 'bank_account' | 'simulated';
export const PAYOUT_DESTINATION_TYPES: readonly PayoutDestinationType[] = ['bank_account', 'simulated'];

/**
 * Live bank accounts start unverified; the payout adapter verifies them (or rejects them: the bank
 * does not know the account, and it is not asked again). Simulated ones are verified at once.
 */
export type PayoutDestinationStatus = 'unverified' | 'verified' | 'rejected';

/** Settlement waits this long after a destination is registered or the default changes (live mode). */
export const PAYOUT_HOLD_MS = 24 * 60 * 60 * 1000;

export const PAYOUT_DESTINATION_LIMITS = { accountHolder: 140, bankCode: 32 } as const;

/**
 * Where a merchant's settlements of one mode are paid. The account number is kept only sealed by
 * the SecretBox; every answer shows its last four characters.
 */
export interface PayoutDestination {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly type: PayoutDestinationType;
  readonly currency: string;
  readonly accountHolder: string;
  readonly bankCode: string;
  /** The account number, sealed by the SecretBox. */
  readonly accountNumberSealed: string;
  readonly accountNumberLast4: string;
  readonly status: PayoutDestinationStatus;
  /** Settlements of the mode are paid here; at most one per merchant and mode. */
  readonly isDefault: boolean;
  /** Live mode: settlements wait until then (armed on register and on each default change). */
  readonly holdUntil?: Date;
  readonly created: Date;
}

/** What the merchant types in, before it is checked. */
export interface PayoutDestinationInput {
  readonly type: string;
  readonly currency: string;
  readonly accountHolder: string;
  readonly bankCode: string;
  readonly accountNumber: string;
}

export interface PayoutDestinationDetails {
  readonly type: PayoutDestinationType;
  readonly currency: string;
  readonly accountHolder: string;
  readonly bankCode: string;
  /** Letters and digits only, separators removed: what a bank would be sent. */
  readonly accountNumber: string;
}

const ACCOUNT_NUMBER = /^[0-9A-Za-z]{6,34}$/;
const BANK_CODE = /^[0-9A-Za-z]{1,32}$/;

/**
 * Checks a destination against the mode: test mode takes only `simulated`, live mode only
 * `bank_account`; the currency must be the merchant's settlement currency (settlements are paid
 * in it). Account numbers are 6 to 34 letters and digits once spaces and hyphens are removed.
 * Throws 400 naming the field; no message repeats the account number.
 */
export function validatePayoutDestination(mode: Mode, settlementCurrency: string, input: PayoutDestinationInput): PayoutDestinationDetails {
  const expected: PayoutDestinationType = mode === 'live' ? 'bank_account' : 'simulated';
  if (input.type !== expected) {
    throw invalidParameter('type', `In ${mode} mode the destination type must be ${expected}.`);
  }
  if (!isKnownCurrency(input.currency) || input.currency !== settlementCurrency) {
    throw invalidParameter('currency', `currency must be the account's settlement currency, ${settlementCurrency}.`);
  }
  const accountHolder = validateLabel(input.accountHolder, 'account_holder', PAYOUT_DESTINATION_LIMITS.accountHolder);
  if (!BANK_CODE.test(input.bankCode)) {
    throw invalidParameter('bank_code', `bank_code must be 1 to ${PAYOUT_DESTINATION_LIMITS.bankCode} letters and digits.`);
  }
  const accountNumber = input.accountNumber.replace(/[\s-]/g, '');
  if (!ACCOUNT_NUMBER.test(accountNumber)) {
    throw invalidParameter('account_number', 'account_number must be 6 to 34 letters and digits (spaces and hyphens are ignored).');
  }
  return { type: expected, currency: input.currency, accountHolder, bankCode: input.bankCode, accountNumber };
}

/** The last four characters: the only part of an account number any answer, notice or log shows. */
export function last4(accountNumber: string): string {
  return accountNumber.slice(-4);
}
