import test from 'ava';
import {
  canTransition,
  PAYMENT_INTENT_STATUSES,
  transition,
  type PaymentIntent,
  type PaymentIntentStatus,
} from '../../src/payments/domain/payment-intent.entity';

/**
 * Every move of the intent state machine, written out in full: any pair not listed here must be
 * refused. Read a row as "from → the statuses it may become".
 */
const ALLOWED: Readonly<Record<PaymentIntentStatus, readonly PaymentIntentStatus[]>> = {
  created: ['requires_payment', 'failed', 'canceled', 'expired', 'succeeded'],
  requires_payment: ['processing', 'succeeded', 'failed', 'canceled', 'expired'],
  processing: ['succeeded', 'failed'],
  failed: ['requires_payment', 'expired', 'succeeded'],
  succeeded: ['channel_settled'],
  channel_settled: [],
  expired: ['succeeded'],
  canceled: ['succeeded'],
};

const now = new Date('2026-09-01T00:00:00Z');
const intentIn = (status: PaymentIntentStatus): PaymentIntent => ({
  id: 'pi_1',
  merchantId: 'mch_1',
  mode: 'test',
  amount: 100,
  currency: 'THB',
  merchantOrderId: 'o',
  status,
  metadata: {},
  created: now,
  updated: now,
  version: 0,
});

for (const from of PAYMENT_INTENT_STATUSES) {
  for (const to of PAYMENT_INTENT_STATUSES) {
    const allowed = ALLOWED[from].includes(to);
    test(`${from} → ${to} is ${allowed ? 'allowed' : 'refused'}`, (t) => {
      t.is(canTransition(from, to), allowed);
      if (allowed) t.is(transition(intentIn(from), to, now).status, to);
      else t.throws(() => transition(intentIn(from), to, now), { message: new RegExp(`cannot become '${to}'`) });
    });
  }
}
