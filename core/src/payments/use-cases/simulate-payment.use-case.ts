import type { PaymentDisputes } from '../../funds';
import type { AccountScope } from '../../common';
import { CoreError, invalidParameter, isOneOf, notFound } from '../../common';
import { PAYER_FAILURE_CODES } from '../domain/payment-attempt.entity';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry, SimulatedDisputeOutcome, SimulatedOutcome, SimulationInstruction } from '../ports/payment-channel.port';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';

export const SIMULATE_OUTCOMES = ['succeeded', 'failed', 'pending', 'dispute_opened', 'dispute_won', 'dispute_lost'] as const;
export type SimulateOutcome = (typeof SIMULATE_OUTCOMES)[number];

export function testModeRequired(): CoreError {
  return new CoreError('test_mode_required', 'forbidden', 'This route works with a test key only.');
}

const DISPUTE_OUTCOMES = ['dispute_opened', 'dispute_won', 'dispute_lost'] as const;

function invalidTransition(message: string): CoreError {
  return new CoreError('invalid_state_transition', 'conflict', message);
}

export interface SimulatePaymentInput {
  readonly scope: AccountScope;
  readonly intentId: string;
  readonly outcome: SimulateOutcome;
  readonly failureCode?: string;
  readonly amount?: number;
  readonly currency?: string;
  /**
   * The request's Idempotency-Key. The channel remembers it with what it was told, so a retry
   * whose first try took effect is answered like that first try instead of refused (the route
   * runs outside a transaction, so a crash can leave the channel told but the answer unstored).
   */
  readonly simulationKey?: string;
}
export interface SimulatePaymentDeps {
  readonly intents: PaymentIntentRepository;
  readonly attempts: PaymentAttemptRepository;
  readonly channels: PaymentChannelRegistry;
  /** The payment's disputes, to refuse a dispute simulation its channel could not act on. */
  readonly disputes?: PaymentDisputes;
}

/**
 * `POST /v1/test/payment_intents/{id}/simulate`: tells the pending attempt's channel what to
 * report, or (dispute outcomes) the paid attempt's channel to open or rule on a dispute. The
 * channel delivers its callback on the real path (signature, confirming query), and the answer is
 * the intent as it stands once that callback landed.
 */
export class SimulatePayment {
  constructor(private readonly deps: SimulatePaymentDeps) {}

  async execute(input: SimulatePaymentInput): Promise<PaymentIntent> {
    if (input.scope.mode !== 'test') throw testModeRequired();
    if (input.failureCode !== undefined && input.outcome !== 'failed') {
      throw invalidParameter('failure_code', 'failure_code goes with outcome failed only.');
    }
    if (input.failureCode !== undefined && !(PAYER_FAILURE_CODES as readonly string[]).includes(input.failureCode)) {
      throw invalidParameter('failure_code', `failure_code must be one of ${PAYER_FAILURE_CODES.join(', ')}.`);
    }
    const isDispute = (DISPUTE_OUTCOMES as readonly string[]).includes(input.outcome);
    if (isDispute && (input.amount !== undefined || input.currency !== undefined)) {
      throw invalidParameter(
        input.amount !== undefined ? 'amount' : 'currency',
        'A simulated dispute claims the whole ordered amount; amount and currency go with payment outcomes only.',
      );
    }
    const intent = await this.deps.intents.findById(input.scope, input.intentId);
    if (!intent) throw notFound('payment_intent', input.intentId);
    const instruction = instructionOf(input);
    if (input.simulationKey !== undefined && (await this.tookEffect(input.scope, intent.id, instruction, input.simulationKey))) {
      return this.reread(input.scope, intent.id);
    }
    if (instruction.kind === 'dispute') {
      await this.simulateDispute(input.scope, intent, instruction.outcome, input.simulationKey);
      return this.reread(input.scope, intent.id);
    }
    const attempt = await this.deps.attempts.findPending(input.scope, intent.id);
    if (!attempt?.channelOrderId) {
      throw new CoreError('invalid_state_transition', 'conflict', 'The payment intent has no pending attempt to simulate; create one first.');
    }
    const channel = this.deps.channels.find(attempt.channel);
    if (!channel?.capabilities.canSimulate || !channel.simulate) {
      throw new CoreError('simulation_unsupported', 'conflict', `The '${attempt.channel}' channel cannot be told what to report.`);
    }
    if (instruction.kind === 'payment') await channel.simulate(input.scope.mode, attempt.channelOrderId, instruction.outcome, input.simulationKey);
    return this.reread(input.scope, intent.id);
  }

  /** The intent as the simulation left it; it was found before, so only a concurrent delete makes it missing. */
  private async reread(scope: AccountScope, id: string): Promise<PaymentIntent> {
    const intent = await this.deps.intents.findById(scope, id);
    if (!intent) throw notFound('payment_intent', id);
    return intent;
  }

  /**
   * Whether a simulate call under this key already told one of the intent's orders this very
   * thing: the retry of a request whose process died after the channel acted. Newest attempt
   * first, since that is where the first try almost always acted; the channel re-delivers a
   * callback that never landed before it answers yes.
   */
  private async tookEffect(scope: AccountScope, intentId: string, instruction: SimulationInstruction, simulationKey: string): Promise<boolean> {
    const attempts = await this.deps.attempts.listForIntent(scope, intentId);
    for (const attempt of [...attempts].reverse()) {
      const channel = this.deps.channels.find(attempt.channel);
      if (!attempt.channelOrderId || !channel?.capabilities.canSimulate || !channel.confirmSimulation) continue;
      if (await channel.confirmSimulation(scope.mode, attempt.channelOrderId, instruction, simulationKey)) return true;
    }
    return false;
  }

  /**
   * Dispute outcomes: the paid attempt's channel opens a dispute over the whole ordered amount, or
   * rules on the dispute opened before, and delivers its notice on the real callback path.
   */
  private async simulateDispute(
    scope: AccountScope,
    intent: PaymentIntent,
    channelOutcome: SimulatedDisputeOutcome,
    simulationKey: string | undefined,
  ): Promise<void> {
    const paid = intent.status === 'succeeded' || intent.status === 'channel_settled';
    const disputes = this.deps.disputes ? await this.deps.disputes.ofPayment(scope, intent.id) : [];
    const open = disputes.some((dispute) => dispute.state === 'open');
    if (channelOutcome === 'opened') {
      if (!paid) throw invalidTransition(`A dispute can be opened on a paid payment intent only; this one is ${intent.status}.`);
      if (open) throw invalidTransition('The payment intent already has an open dispute; rule on it first (dispute_won or dispute_lost).');
      if (disputes.some((dispute) => dispute.state === 'lost'))
        throw invalidTransition('The payment intent lost a dispute already: its money went back to the payer, so there is nothing left to dispute.');
    } else if (!open) {
      throw invalidTransition('The payment intent has no open dispute to rule on; simulate dispute_opened first.');
    }
    const attempt = await this.deps.attempts.findSucceeded(scope, intent.id);
    if (!attempt?.channelOrderId) throw invalidTransition('The payment intent has no paid attempt to dispute.');
    const channel = this.deps.channels.find(attempt.channel);
    if (!this.deps.disputes || !channel?.capabilities.canSimulate || !channel.simulateDispute) {
      throw new CoreError('simulation_unsupported', 'conflict', `The '${attempt.channel}' channel cannot be told to open or rule on disputes.`);
    }
    await channel.simulateDispute(scope.mode, attempt.channelOrderId, channelOutcome, simulationKey);
  }
}

/** What the request tells the channel, built once so a retry compares exactly what a first try sent. */
function instructionOf(input: SimulatePaymentInput): SimulationInstruction {
  if ((DISPUTE_OUTCOMES as readonly string[]).includes(input.outcome)) {
    return { kind: 'dispute', outcome: input.outcome === 'dispute_opened' ? 'opened' : input.outcome === 'dispute_won' ? 'won' : 'lost' };
  }
  const outcome: SimulatedOutcome = {
    status: input.outcome === 'succeeded' ? 'paid' : input.outcome === 'failed' ? 'failed' : 'processing',
    ...(input.outcome === 'failed' ? { failureCode: isOneOf(PAYER_FAILURE_CODES, input.failureCode) ? input.failureCode : 'payer_cancelled' } : {}),
    ...(input.amount === undefined ? {} : { amount: input.amount }),
    ...(input.currency === undefined ? {} : { currency: input.currency }),
  };
  return { kind: 'payment', outcome };
}
