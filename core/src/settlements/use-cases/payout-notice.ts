import type { AuditFact, Notice, User } from '../../dashboard';
import type { Merchant } from '../../merchants';
import type { RandomSource } from '../../common';
import { newId } from '../../common';
import type { PayoutDestination } from '../domain/payout-destination.entity';

/** The notice of a destination change, for the account's email: last four characters only. */
export function payoutNotice(
  kind: 'payout_destination.registered' | 'payout_destination.default_changed',
  merchant: Merchant,
  actor: User,
  destination: PayoutDestination,
  now: Date,
  random: RandomSource,
): Notice {
  return {
    id: newId(random, 'notice'),
    merchantId: merchant.id,
    kind,
    recipient: merchant.email,
    details: {
      destination: destination.id,
      mode: destination.mode,
      type: destination.type,
      currency: destination.currency,
      account_last4: destination.accountNumberLast4,
      user_email: actor.email,
      ...(destination.holdUntil === undefined ? {} : { hold_until: destination.holdUntil.toISOString() }),
    },
    created: now,
  };
}

/** The audit entry of a destination change: what changed, the mode and last four characters, then `more`. */
export function payoutAudit(actor: User, destination: PayoutDestination, change: string, more: Readonly<Record<string, boolean>> = {}): AuditFact {
  return {
    merchantId: destination.merchantId,
    userId: actor.id,
    action: 'payout_methods.write',
    objectType: 'payout_method',
    objectId: destination.id,
    details: { change, mode: destination.mode, account_last4: destination.accountNumberLast4, ...more },
  };
}
