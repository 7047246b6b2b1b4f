import type { PaymentChannelRegistry, SimulatedRefundOutcome } from '../../payments';
import { REFUND_FAILURE_CODES, testModeRequired } from '../../payments';
import type { AccountScope } from '../../common';
import { CoreError, invalidParameter, isOneOf, notFound } from '../../common';
import { isFinal, type Refund } from '../domain/refund.entity';
import type { RefundRepository } from '../ports/refund.repository.port';

export interface SimulateRefundInput {
  readonly scope: AccountScope;
  readonly id: string;
  readonly outcome: 'succeeded' | 'failed';
  readonly failureCode?: string;
  /** The request's Idempotency-Key, remembered by the channel as for simulated payments. */
  readonly simulationKey?: string;
}
export interface SimulateRefundDeps {
  readonly refunds: RefundRepository;
  readonly channels: PaymentChannelRegistry;
}

/**
 * `POST /v1/test/refunds/{id}/simulate`: tells the refund's channel what to report for it. The
 * channel delivers its signed notice on the real callback path (signature, refund query), and the
 * answer is the refund as that notice left it.
 */
export class SimulateRefund {
  constructor(private readonly deps: SimulateRefundDeps) {}

  async execute(input: SimulateRefundInput): Promise<Refund> {
    if (input.scope.mode !== 'test') throw testModeRequired();
    if (input.failureCode !== undefined && input.outcome !== 'failed') throw invalidParameter('failure_code', 'failure_code goes with outcome failed only.');
    if (input.failureCode !== undefined && !isOneOf(REFUND_FAILURE_CODES, input.failureCode)) {
      throw invalidParameter('failure_code', `failure_code must be one of ${REFUND_FAILURE_CODES.join(', ')}.`);
    }
    const refund = await this.reread(input.scope, input.id);
    const outcome: SimulatedRefundOutcome =
      input.outcome === 'failed'
        ? { status: 'failed', failureCode: isOneOf(REFUND_FAILURE_CODES, input.failureCode) ? input.failureCode : 'channel_declined' }
        : { status: 'succeeded' };
    const channel = this.deps.channels.find(refund.channel);
    if (!channel?.capabilities.canSimulate || !channel.simulateRefund) {
      throw new CoreError('simulation_unsupported', 'conflict', `The '${refund.channel}' channel cannot be told what to report for refunds.`);
    }
    if (refund.channelRefundId === undefined) {
      throw new CoreError('invalid_state_transition', 'conflict', 'The channel has not taken this refund yet; try again shortly.');
    }
    const instruction = { kind: 'refund', outcome } as const;
    if (input.simulationKey !== undefined && (await channel.confirmSimulation?.(input.scope.mode, refund.channelRefundId, instruction, input.simulationKey))) {
      return this.reread(input.scope, refund.id);
    }
    if (isFinal(refund)) throw new CoreError('invalid_state_transition', 'conflict', `The refund is ${refund.status} already; the channel's answer is final.`);
    await channel.simulateRefund(input.scope.mode, refund.channelRefundId, outcome, input.simulationKey);
    return this.reread(input.scope, refund.id);
  }

  private async reread(scope: AccountScope, id: string): Promise<Refund> {
    const refund = await this.deps.refunds.findById(scope, id);
    if (!refund) throw notFound('refund', id);
    return refund;
  }
}
