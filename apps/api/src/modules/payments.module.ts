import {
  AdvanceTimer,
  CancelPaymentIntent,
  CheckoutSessionRepository,
  Clock,
  CreatePaymentIntent,
  Digest,
  ExpirePaymentIntents,
  GetPaymentIntent,
  HandleChannelCallback,
  ListAttempts,
  ListDuplicatePayments,
  ListPaymentIntents,
  LockManager,
  MerchantRepository,
  OperatorAlerts,
  PaymentAttemptRepository,
  PaymentChannelRegistry,
  PaymentDisputes,
  PaymentFunds,
  PaymentIntentRepository,
  PaymentPricing,
  PlaceAttempt,
  RandomSource,
  ReconcileAttempts,
  RecordChannelReport,
  RecordDisputeReport,
  RecordRefundNotice,
  ReleaseFunds,
  ReportChannelSettlements,
  SimulatePayment,
  UnitOfWork,
  type StatusChangeDeps,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass, value, type Wiring } from './wiring';
import { publishingWiring } from './webhooks.module';
import type { Capability } from './capability';
import createPaymentIntent from '../routes/payments/create-payment-intent.route';
import listPaymentIntents from '../routes/payments/list-payment-intents.route';
import getPaymentIntent from '../routes/payments/get-payment-intent.route';
import cancelPaymentIntent from '../routes/payments/cancel-payment-intent.route';
import createPaymentAttempt from '../routes/payments/create-payment-attempt.route';
import listPaymentAttempts from '../routes/payments/list-payment-attempts.route';
import simulatePayment from '../routes/payments/simulate-payment.route';
import advanceTimer from '../routes/payments/advance-timer.route';
import channelCallback from '../routes/payments/channel-callback.route';
import dashboardListPaymentIntents from '../routes/payments/dashboard-list-payment-intents.route';
import dashboardGetPaymentIntent from '../routes/payments/dashboard-get-payment-intent.route';
import dashboardListPaymentAttempts from '../routes/payments/dashboard-list-payment-attempts.route';

/** What every change of an intent's status writes through: the intent, its event and webhook deliveries. */
export const statusChangeWiring: Wiring<StatusChangeDeps> = { ...publishingWiring, intents: PaymentIntentRepository, clock: Clock, random: RandomSource };

/** Payment intents, attempts at a channel and the channel's reports. */
export const paymentsModule: Capability = {
  bindings: (config) =>
    new ContainerModule((options) => {
      bindClass(options, CreatePaymentIntent, {
        uow: UnitOfWork,
        intents: PaymentIntentRepository,
        sessions: CheckoutSessionRepository,
        clock: Clock,
        random: RandomSource,
        digest: Digest,
        settings: value({ publicBaseUrl: config.baseUrl }),
        pricing: PaymentPricing,
      });
      bindClass(options, GetPaymentIntent, { intents: PaymentIntentRepository });
      bindClass(options, ListPaymentIntents, { intents: PaymentIntentRepository });
      const endingAttempts = { ...statusChangeWiring, uow: UnitOfWork, attempts: PaymentAttemptRepository, channels: PaymentChannelRegistry };
      bindClass(options, CancelPaymentIntent, endingAttempts);
      bindClass(options, ExpirePaymentIntents, { ...endingAttempts, recordReport: RecordChannelReport });
      bindClass(options, AdvanceTimer, { uow: UnitOfWork, intents: PaymentIntentRepository, clock: Clock });
      bindClass(options, ReleaseFunds, { uow: UnitOfWork, intents: PaymentIntentRepository, funds: PaymentFunds, clock: Clock });
      bindClass(options, PlaceAttempt, { ...endingAttempts, locks: LockManager, settings: value({ callbackBaseUrl: config.channelCallbackUrl }) });
      bindClass(options, ListAttempts, { intents: PaymentIntentRepository, attempts: PaymentAttemptRepository });
      bindClass(options, ListDuplicatePayments, { attempts: PaymentAttemptRepository });
      bindClass(options, RecordChannelReport, {
        ...statusChangeWiring,
        uow: UnitOfWork,
        attempts: PaymentAttemptRepository,
        merchants: MerchantRepository,
        pricing: PaymentPricing,
        funds: PaymentFunds,
        alerts: OperatorAlerts,
      });
      bindClass(options, HandleChannelCallback, {
        channels: PaymentChannelRegistry,
        attempts: PaymentAttemptRepository,
        recordReport: RecordChannelReport,
        recordDisputeReport: RecordDisputeReport,
        recordRefundNotice: RecordRefundNotice,
      });
      bindClass(options, SimulatePayment, {
        intents: PaymentIntentRepository,
        attempts: PaymentAttemptRepository,
        channels: PaymentChannelRegistry,
        disputes: PaymentDisputes,
      });
      bindClass(options, ReconcileAttempts, {
        attempts: PaymentAttemptRepository,
        channels: PaymentChannelRegistry,
        recordReport: RecordChannelReport,
        clock: Clock,
      });
      bindClass(options, ReportChannelSettlements, {
        ...statusChangeWiring,
        uow: UnitOfWork,
        attempts: PaymentAttemptRepository,
        merchants: MerchantRepository,
        channels: PaymentChannelRegistry,
        pricing: PaymentPricing,
        funds: PaymentFunds,
      });
    }),
  routes: [
    createPaymentIntent,
    listPaymentIntents,
    getPaymentIntent,
    cancelPaymentIntent,
    createPaymentAttempt,
    listPaymentAttempts,
    simulatePayment,
    advanceTimer,
    channelCallback,
    dashboardListPaymentIntents,
    dashboardGetPaymentIntent,
    dashboardListPaymentAttempts,
  ],
};
