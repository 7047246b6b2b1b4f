import type { Dispute, RecordDisputeReport } from '../../disputes';
import type { RecordRefundReport, Refund, RefundRepository } from '../../refunds';
import { refundReportOf } from '../../refunds';
import type { Mode } from '../../common';
import { CoreError } from '../../common';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { ChannelRefundNotice, PaymentChannel, PaymentChannelRegistry } from '../ports/payment-channel.port';
import type { RecordChannelReport } from './record-channel-report.use-case';

function unknownOrder(): CoreError {
  return new CoreError('resource_not_found', 'not_found', 'No order of this channel matches the callback.');
}
export interface HandleChannelCallbackDeps {
  readonly channels: PaymentChannelRegistry;
  readonly attempts: PaymentAttemptRepository;
  readonly recordReport: RecordChannelReport;
  readonly recordDisputeReport?: RecordDisputeReport;
  readonly refunds?: RefundRepository;
  readonly recordRefundReport?: RecordRefundReport;
}

/**
 * A channel's callback: its signature is checked, then the channel is asked (the confirming
 * query) what really happened; the callback's own status and amount decide nothing. A refused
 * callback changes nothing.
 */
export class HandleChannelCallback {
  constructor(private readonly deps: HandleChannelCallbackDeps) {}

  async execute(input: {
    channel: string;
    mode: Mode;
    headers: Readonly<Record<string, string | undefined>>;
    rawBody: string;
  }): Promise<PaymentIntent | Dispute | Refund> {
    const channel = this.deps.channels.find(input.channel);
    if (!channel || !channel.capabilities.modes.includes(input.mode)) throw unknownOrder();
    const callback = channel.verifyCallback(input.mode, input.headers, input.rawBody);
    if (callback.kind === 'dispute') return this.dispute(channel, input.mode, callback.channelDisputeId);
    if (callback.kind === 'refund') return this.refund(channel, input.mode, callback);
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
  private async dispute(channel: PaymentChannel, mode: Mode, channelDisputeId: string): Promise<Dispute> {
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

  /**
   * A refund notice: it must name one of our refunds at this channel and mode, and the channel's
   * refund query says what happened; the notice's own claims decide nothing.
   */
  private async refund(channel: PaymentChannel, mode: Mode, notice: ChannelRefundNotice): Promise<Refund> {
    if (!channel.queryRefund || !this.deps.refunds || !this.deps.recordRefundReport) throw unknownOrder();
    const refund = await this.deps.refunds.findForChannel(mode, notice.reference);
    if (!refund || refund.channel !== channel.capabilities.name) throw unknownOrder();
    const report = await channel.queryRefund(mode, notice.channelRefundId);
    if (report.channelRefundId !== notice.channelRefundId || report.reference !== refund.id || report.channelOrderId !== refund.channelOrderId) {
      throw new CoreError('channel_error', 'unavailable', 'The channel answered about another refund.', { retryAfterSeconds: 5 });
    }
    return this.deps.recordRefundReport.execute({ refund, report: refundReportOf(report) });
  }
}
