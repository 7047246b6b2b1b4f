import type { AccountScope } from '../../domain/mode';
import { PAYER_FAILURE_CODES, type AttemptFailureCode } from '../../domain/payment-attempt.entity';
import type { PaymentIntent } from '../../domain/payment-intent.entity';
import { CoreError, invalidParameter, notFound } from '../../errors/core-error';
import type { PaymentAttemptRepository } from '../../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry, SimulatedOutcome } from '../../ports/payment-channel.port';
import type { PaymentIntentRepository } from '../../ports/payment-intent.repository.port';

export const SIMULATE_OUTCOMES = ['succeeded', 'failed', 'pending', 'dispute_opened', 'dispute_won', 'dispute_lost'] as const;
export type SimulateOutcome = (typeof SIMULATE_OUTCOMES)[number];

export function testModeRequired(): CoreError {
  return new CoreError('test_mode_required', 'forbidden', 'This route works with a test key only.');
}

export interface SimulatePaymentInput {
  readonly scope: AccountScope;
  readonly intentId: string;
  readonly outcome: SimulateOutcome;
  readonly failureCode?: string;
  readonly amount?: number;
  readonly currency?: string;
}

/**
 * `POST /v1/test/payment_intents/{id}/simulate`: tells the pending attempt's channel what to
 * report. The channel delivers its callback on the real path (signature, confirming query), and
 * the answer is the intent as it stands once that callback landed.
 */
export class SimulatePayment {
  constructor(
    private readonly intents: PaymentIntentRepository,
    private readonly attempts: PaymentAttemptRepository,
    private readonly channels: PaymentChannelRegistry,
  ) {}

  async execute(input: SimulatePaymentInput): Promise<PaymentIntent> {
    if (input.scope.mode !== 'test') throw testModeRequired();
    if (input.failureCode !== undefined && input.outcome !== 'failed') {
      throw invalidParameter('failure_code', 'failure_code goes with outcome failed only.');
    }
    if (input.failureCode !== undefined && !(PAYER_FAILURE_CODES as readonly string[]).includes(input.failureCode)) {
      throw invalidParameter('failure_code', `failure_code must be one of ${PAYER_FAILURE_CODES.join(', ')}.`);
    }
    const intent = await this.intents.findById(input.scope, input.intentId);
    if (!intent) throw notFound('payment_intent', input.intentId);
    if (input.outcome.startsWith('dispute_')) {
      throw new CoreError('simulation_unsupported', 'conflict', 'Dispute simulation is not available yet; it arrives with disputes.');
    }
    const attempt = await this.attempts.findPending(input.scope, intent.id);
    if (!attempt?.channelOrderId) {
      throw new CoreError('invalid_state_transition', 'conflict', 'The payment intent has no pending attempt to simulate; create one first.');
    }
    const channel = this.channels.find(attempt.channel);
    if (!channel?.capabilities.canSimulate || !channel.simulate) {
      throw new CoreError('simulation_unsupported', 'conflict', `The '${attempt.channel}' channel cannot be told what to report.`);
    }
    const outcome: SimulatedOutcome = {
      status: input.outcome === 'succeeded' ? 'paid' : input.outcome === 'failed' ? 'failed' : 'processing',
      ...(input.outcome === 'failed' ? { failureCode: (input.failureCode ?? 'payer_cancelled') as AttemptFailureCode } : {}),
      ...(input.amount === undefined ? {} : { amount: input.amount }),
      ...(input.currency === undefined ? {} : { currency: input.currency }),
    };
    await channel.simulate(input.scope.mode, attempt.channelOrderId, outcome);
    return (await this.intents.findById(input.scope, intent.id)) as PaymentIntent;
  }
}
