import {
  AuditRecorder,
  Clock,
  DisputeRepository,
  GetDispute,
  ListDisputes,
  PaymentMoneyStatuses,
  MerchantRepository,
  PaymentAttemptRepository,
  PaymentChannelRegistry,
  PaymentFunds,
  PaymentIntentRepository,
  RandomSource,
  ReconcileDisputes,
  RecordDisputeReport,
  SubmitDisputeEvidence,
  UnitOfWork,
  type DisputeWriteDeps,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import { publishingWiring } from './webhooks.module';
import { bindClass, value, type Wiring } from './wiring';
import type { Capability } from './capability';
import listDisputes from '../routes/disputes/list-disputes.route';
import getDispute from '../routes/disputes/get-dispute.route';
import submitDisputeEvidence from '../routes/disputes/submit-dispute-evidence.route';
import dashboardListDisputes from '../routes/disputes/dashboard-list-disputes.route';
import dashboardGetDispute from '../routes/disputes/dashboard-get-dispute.route';
import dashboardSubmitDisputeEvidence from '../routes/disputes/dashboard-submit-dispute-evidence.route';
import dashboardListIntentDisputes from '../routes/disputes/dashboard-list-intent-disputes.route';

/** The one place a dispute changes writes through these. */
const disputeWrites: Wiring<DisputeWriteDeps> = {
  ...publishingWiring,
  uow: UnitOfWork,
  disputes: DisputeRepository,
  intents: PaymentIntentRepository,
  funds: PaymentFunds,
  clock: Clock,
  random: RandomSource,
};

/** Disputes: the channel's reports, reads, evidence and reconciliation. */
export const disputesModule: Capability = {
  bindings: (config) =>
    new ContainerModule((options) => {
      bindClass(options, RecordDisputeReport, {
        ...disputeWrites,
        merchants: MerchantRepository,
        rules: value({ disputeFeeMinor: config.disputeFeeMinor }),
      });
      bindClass(options, ListDisputes, { disputes: DisputeRepository });
      bindClass(options, PaymentMoneyStatuses, { disputes: DisputeRepository });
      bindClass(options, GetDispute, { disputes: DisputeRepository });
      bindClass(options, SubmitDisputeEvidence, { ...disputeWrites, channels: PaymentChannelRegistry, audit: AuditRecorder });
      bindClass(options, ReconcileDisputes, {
        disputes: DisputeRepository,
        attempts: PaymentAttemptRepository,
        channels: PaymentChannelRegistry,
        recordDisputeReport: RecordDisputeReport,
        clock: Clock,
        rules: value({ staleAfterMs: config.disputeReconcileAfterMs }),
      });
    }),
  routes: [
    listDisputes,
    getDispute,
    submitDisputeEvidence,
    dashboardListDisputes,
    dashboardGetDispute,
    dashboardSubmitDisputeEvidence,
    dashboardListIntentDisputes,
  ],
};
