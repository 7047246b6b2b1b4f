import type { PayoutDestination } from '../../domain/payout-destination.entity';
import { newId } from '../../domain/ids';
import type { Merchant } from '../../domain/merchant.entity';
import type { Notice } from '../../domain/notice.entity';
import type { User } from '../../domain/user.entity';
import type { RandomSource } from '../../ports/random-source.port';

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
