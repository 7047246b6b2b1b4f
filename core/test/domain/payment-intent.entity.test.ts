import test from 'ava';
import { CoreError } from '../../src/common/core-error';
import {
  canTransition,
  isDueForExpiry,
  PAYMENT_INTENT_STATUSES,
  statusEmitsEvent,
  transition,
  type PaymentIntent,
} from '../../src/payments/domain/payment-intent.entity';

const now = new Date('2026-09-01T00:00:00Z');
const intent = (status: PaymentIntent['status'], expiresAt?: Date): PaymentIntent => ({
  id: 'pi_1',
  merchantId: 'mch_1',
  mode: 'test',
  amount: 100,
  currency: 'THB',
  merchantOrderId: 'o1',
  status,
  metadata: {},
  created: now,
  updated: now,
  expiresAt,
  version: 0,
});

test('a confirmed success is accepted from every status that does not already hold it', (t) => {
  for (const status of PAYMENT_INTENT_STATUSES) {
    const expected = !['succeeded', 'channel_settled'].includes(status);
    t.is(canTransition(status, 'succeeded'), expected, status);
  }
});

test('only created and requires_payment can be canceled', (t) => {
  t.deepEqual(
    PAYMENT_INTENT_STATUSES.filter((status) => canTransition(status, 'canceled')),
    ['created', 'requires_payment'],
  );
});

test('channel_settled is final', (t) => {
  t.true(PAYMENT_INTENT_STATUSES.every((status) => !canTransition('channel_settled', status)));
});

test('a failed intent takes a new attempt; processing cannot go back', (t) => {
  t.true(canTransition('failed', 'requires_payment'));
  t.false(canTransition('processing', 'requires_payment'));
  t.false(canTransition('created', 'processing'));
});

test('transition refuses a move the machine forbids with 409 invalid_state_transition', (t) => {
  const error = t.throws(() => transition(intent('canceled'), 'requires_payment', now), { instanceOf: CoreError });
  t.is(error?.code, 'invalid_state_transition');
  t.is(error?.category, 'conflict');
});

test('transition returns a new intent and leaves the old one untouched', (t) => {
  const before = intent('created');
  const later = new Date(now.getTime() + 1000);
  const after = transition(before, 'canceled', later);
  t.is(after.status, 'canceled');
  t.deepEqual(after.updated, later);
  t.is(before.status, 'created');
});

test('every status but created is announced', (t) => {
  t.deepEqual(
    PAYMENT_INTENT_STATUSES.filter((status) => !statusEmitsEvent(status)),
    ['created'],
  );
});

test('the expiry timer runs for created, requires_payment and failed only, from expires_at on', (t) => {
  const due = new Date(now.getTime() - 1);
  t.true(isDueForExpiry(intent('created', due), now));
  t.true(isDueForExpiry(intent('failed', now), now));
  t.false(isDueForExpiry(intent('requires_payment', new Date(now.getTime() + 1)), now));
  t.false(isDueForExpiry(intent('processing', due), now));
  t.false(isDueForExpiry(intent('canceled', due), now));
});
