import type { Mode } from '../../common';
import { CoreError } from '../../common';
import type { PaymentAttempt } from '../domain/payment-attempt.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { ChannelDisputeStatus, ChannelRefundNotice, PaymentChannel, PaymentChannelRegistry } from '../ports/payment-channel.port';
import type { RecordChannelReport } from './record-channel-report.use-case';

/**
 * Records what a channel's dispute query says of one of our attempts' orders (the disputes
 * capability's `RecordDisputeReport`): payments hands it on and knows nothing of disputes.
 */
export interface DisputeNoticeRecorder {
  execute(input: { attempt: PaymentAttempt; report: ChannelDisputeStatus }): Promise<unknown>;
}

/**
 * Takes a channel's refund notice (the refunds capability's `RecordRefundNotice`): it must name one
 * of our refunds at this channel, whose refund query then decides. Throws CoreError
 * `resource_not_found` for a notice of no refund of ours.
 */
export interface RefundNoticeRecorder {
  execute(input: { channel: PaymentChannel; mode: Mode; notice: ChannelRefundNotice }): Promise<unknown>;
}

export function unknownOrder(): CoreError {
  return new CoreError('resource_not_found', 'not_found', 'No order of this channel matches the callback.');
}
export interface HandleChannelCallbackDeps {
  readonly channels: PaymentChannelRegistry;
  readonly attempts: PaymentAttemptRepository;
  readonly recordReport: RecordChannelReport;
  readonly recordDisputeReport?: DisputeNoticeRecorder;
  readonly recordRefundNotice?: RefundNoticeRecorder;
}

/**
 * A channel's callback: its signature is checked, then the channel is asked (the confirming
 * query) what really happened; the callback's own status and amount decide nothing. A refused
 * callback changes nothing.
 */
export class HandleChannelCallback {
  constructor(private readonly deps: HandleChannelCallbackDeps) {}

  async execute(input: { channel: string; mode: Mode; headers: Readonly<Record<string, string | undefined>>; rawBody: string }): Promise<unknown> {
    const channel = this.deps.channels.find(input.channel);
    if (!channel || !channel.capabilities.modes.includes(input.mode)) throw unknownOrder();
    const callback = await channel.verifyCallback(input.mode, input.headers, input.rawBody);
    if (callback.kind === 'dispute') return this.dispute(channel, input.mode, callback.channelDisputeId);
    if (callback.kind === 'refund') {
      if (!channel.queryRefund || !this.deps.recordRefundNotice) throw unknownOrder();
      return this.deps.recordRefundNotice.execute({ channel, mode: input.mode, notice: callback });
    }
    const attempt = await this.deps.attempts.findByReference(callback.reference);
    if (!attempt || attempt.channel !== input.channel || attempt.mode !== input.mode || attempt.channelOrderId !== callback.channelOrderId) {
      throw unknownOrder();
    }
    const report = await channel.queryOrder(input.mode, callback.channelOrderId);
    if (report.channelOrderId !== attempt.channelOrderId || report.reference !== attempt.id) {
      throw new CoreError('channel_error', 'unavailable', 'The channel answered about another order.', { retryAfterSeconds: 5 });
    }
    return this.deps.recordReport.execute({ attempt, report });
  }

  /**
   * A dispute notice: the channel's dispute query says what happened, and the order it names must
   * be one of our attempts on this channel and mode; the notice's own claims decide nothing.
   */
  private async dispute(channel: PaymentChannel, mode: Mode, channelDisputeId: string): Promise<unknown> {
    if (!channel.queryDispute || !this.deps.recordDisputeReport) throw unknownOrder();
    const report = await channel.queryDispute(mode, channelDisputeId);
    if (report.channelDisputeId !== channelDisputeId) {
      throw new CoreError('channel_error', 'unavailable', 'The channel answered about another dispute.', { retryAfterSeconds: 5 });
    }
    const attempt = await this.deps.attempts.findByReference(report.reference);
    if (!attempt || attempt.channel !== channel.capabilities.name || attempt.mode !== mode || attempt.channelOrderId !== report.channelOrderId) {
      throw unknownOrder();
    }
    return this.deps.recordDisputeReport.execute({ attempt, report });
  }
}
