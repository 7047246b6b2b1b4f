import {
  AuditRecorder,
  Clock,
  CreateRefund,
  GetRefund,
  ListRefunds,
  PaymentAttemptRepository,
  PaymentChannelRegistry,
  PaymentDisputes,
  PaymentFunds,
  PaymentIntentRepository,
  RandomSource,
  ReconcileRefunds,
  RecordRefundNotice,
  RecordRefundReport,
  RefundRepository,
  SimulateRefund,
  UnitOfWork,
  type RefundWriteDeps,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import { publishingWiring } from './webhooks.module';
import { bindClass, value, type Wiring } from './wiring';
import type { Capability } from './capability';
import createRefund from '../routes/refunds/create-refund.route';
import listRefunds from '../routes/refunds/list-refunds.route';
import getRefund from '../routes/refunds/get-refund.route';
import simulateRefund from '../routes/refunds/simulate-refund.route';
import listPaymentIntentRefunds from '../routes/refunds/dashboard-list-intent-refunds.route';
import dashboardCreateRefund from '../routes/refunds/dashboard-create-refund.route';

/** What every change of a refund writes through, in one unit of work. */
const refundWrites: Wiring<RefundWriteDeps> = {
  ...publishingWiring,
  uow: UnitOfWork,
  refunds: RefundRepository,
  intents: PaymentIntentRepository,
  funds: PaymentFunds,
  clock: Clock,
  random: RandomSource,
};

/** Refunds: made by the merchant, placed at the channel, settled by its reports and the reconciler. */
export const refundsModule: Capability = {
  bindings: (config) =>
    new ContainerModule((options) => {
      const placing = {
        ...refundWrites,
        attempts: PaymentAttemptRepository,
        disputes: PaymentDisputes,
        channels: PaymentChannelRegistry,
        settings: value({ callbackBaseUrl: config.channelCallbackUrl }),
        recordReport: RecordRefundReport,
        audit: AuditRecorder,
      };
      bindClass(options, CreateRefund, placing);
      bindClass(options, RecordRefundReport, refundWrites);
      bindClass(options, RecordRefundNotice, { refunds: RefundRepository, recordReport: RecordRefundReport });
      bindClass(options, GetRefund, { refunds: RefundRepository });
      bindClass(options, ListRefunds, { refunds: RefundRepository });
      bindClass(options, SimulateRefund, { refunds: RefundRepository, channels: PaymentChannelRegistry });
      bindClass(options, ReconcileRefunds, { ...placing, rules: value({ staleAfterMs: config.refundReconcileAfterMs }) });
    }),
  routes: [createRefund, listRefunds, getRefund, simulateRefund, listPaymentIntentRefunds, dashboardCreateRefund],
};
