import type { AccountScope } from '../../common';
import { describeFailure, type AttemptFailureCode, type PaymentAttempt } from '../domain/payment-attempt.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../ports/payment-channel.port';

/**
 * Fails the intent's pending attempt, if any, because the intent ended (expired, canceled).
 * Call it inside the unit of work of the intent's change; void the returned order afterwards.
 */
export async function endPendingAttempt(
  attempts: PaymentAttemptRepository,
  scope: AccountScope,
  intentId: string,
  code: AttemptFailureCode,
  now: Date,
): Promise<PaymentAttempt | undefined> {
  const pending = await attempts.findPending(scope, intentId);
  if (!pending) return undefined;
  return attempts.update({ ...pending, status: 'failed', failureCode: code, failureMessage: describeFailure(code), nextCheckAt: undefined, updated: now });
}

/**
 * Tells the channel an order may no longer be paid. Best effort, after the change committed: if
 * the payer pays anyway, the confirmed success is still recorded (money is never dropped).
 */
export async function voidOrder(channels: PaymentChannelRegistry, attempt: PaymentAttempt | undefined): Promise<void> {
  if (!attempt?.channelOrderId) return;
  await channels
    .find(attempt.channel)
    ?.voidOrder(attempt.mode, attempt.channelOrderId)
    .catch(() => undefined);
}
