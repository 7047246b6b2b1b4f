import type { ChannelRefundNotice, PaymentChannel, RefundNoticeRecorder } from '../../payments';
import { unknownOrder } from '../../payments';
import type { Mode } from '../../common';
import { CoreError } from '../../common';
import type { Refund } from '../domain/refund.entity';
import type { RefundRepository } from '../ports/refund.repository.port';
import { refundReportOf, type RecordRefundReport } from './record-refund-report.use-case';

export interface RecordRefundNoticeDeps {
  readonly refunds: RefundRepository;
  readonly recordReport: RecordRefundReport;
}

/**
 * A channel's refund notice, handed on by the channel callback: it must name one of our refunds at
 * this channel and mode, and the channel's refund query says what happened; the notice's own
 * claims decide nothing.
 */
export class RecordRefundNotice implements RefundNoticeRecorder {
  constructor(private readonly deps: RecordRefundNoticeDeps) {}

  async execute(input: { channel: PaymentChannel; mode: Mode; notice: ChannelRefundNotice }): Promise<Refund> {
    const { channel, mode, notice } = input;
    if (!channel.queryRefund) throw unknownOrder();
    const refund = await this.deps.refunds.findForChannel(mode, notice.reference);
    if (!refund || refund.channel !== channel.capabilities.name) throw unknownOrder();
    const report = await channel.queryRefund(mode, notice.channelRefundId);
    if (report.channelRefundId !== notice.channelRefundId || report.reference !== refund.id || report.channelOrderId !== refund.channelOrderId) {
      throw new CoreError('channel_error', 'unavailable', 'The channel answered about another refund.', { retryAfterSeconds: 5 });
    }
    return this.deps.recordReport.execute({ refund, report: refundReportOf(report) });
  }
}
