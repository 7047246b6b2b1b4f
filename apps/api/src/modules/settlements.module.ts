import {
  AuditRecorder,
  Clock,
  CreateManualSettlement,
  CreateScheduledSettlements,
  GetNextSettlement,
  GetSettlement,
  Ledger,
  ListPayoutDestinations,
  ListSettlements,
  LockManager,
  MerchantRepository,
  NoticeOutbox,
  PaymentFunds,
  PayoutDestinationRepository,
  PayoutGateway,
  PaySettlement,
  PaySettlements,
  RandomSource,
  RegisterPayoutDestination,
  SecretBox,
  SetDefaultPayoutDestination,
  SettlementRepository,
  StepUp,
  SummarizeSettlements,
  UnitOfWork,
  VerifyPayoutDestinations,
  type SettlementWriterDeps,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import { publishingWiring } from './webhooks.module';
import { bindClass, type Wiring } from './wiring';
import type { Capability } from './capability';
import createSettlement from '../routes/settlements/create-settlement.route';
import listSettlements from '../routes/settlements/list-settlements.route';
import getSettlement from '../routes/settlements/get-settlement.route';
import listPayoutMethods from '../routes/settlements/list-payout-methods.route';
import registerPayoutMethod from '../routes/settlements/register-payout-method.route';
import setDefaultPayoutMethod from '../routes/settlements/set-default-payout-method.route';
import dashboardListSettlements from '../routes/settlements/dashboard-list-settlements.route';
import dashboardGetSettlement from '../routes/settlements/dashboard-get-settlement.route';
import dashboardCreateSettlement from '../routes/settlements/dashboard-create-settlement.route';

const settlementWriters: Wiring<SettlementWriterDeps> = {
  ...publishingWiring,
  settlements: SettlementRepository,
  ledger: Ledger,
  funds: PaymentFunds,
  clock: Clock,
  random: RandomSource,
  uow: UnitOfWork,
  merchants: MerchantRepository,
  locks: LockManager,
};

/** Settlements and payouts, and the payout destinations they pay to. */
export const settlementsModule: Capability = {
  bindings: () =>
    new ContainerModule((options) => {
      bindClass(options, PaySettlement, { ...settlementWriters, destinations: PayoutDestinationRepository, secrets: SecretBox, gateway: PayoutGateway });
      bindClass(options, PaySettlements, { settlements: SettlementRepository, pay: PaySettlement });
      bindClass(options, CreateManualSettlement, { ...settlementWriters, pay: PaySettlement, audit: AuditRecorder });
      bindClass(options, CreateScheduledSettlements, settlementWriters);
      bindClass(options, VerifyPayoutDestinations, { uow: UnitOfWork, destinations: PayoutDestinationRepository, gateway: PayoutGateway, secrets: SecretBox });
      bindClass(options, ListSettlements, { settlements: SettlementRepository });
      bindClass(options, GetSettlement, { settlements: SettlementRepository });
      bindClass(options, SummarizeSettlements, { ledger: Ledger });
      bindClass(options, GetNextSettlement, { settlements: SettlementRepository, ledger: Ledger, merchants: MerchantRepository, clock: Clock });
      bindClass(options, ListPayoutDestinations, { destinations: PayoutDestinationRepository });
      const destinationChange = {
        uow: UnitOfWork,
        merchants: MerchantRepository,
        destinations: PayoutDestinationRepository,
        notices: NoticeOutbox,
        stepUp: StepUp,
        audit: AuditRecorder,
        clock: Clock,
        random: RandomSource,
      };
      bindClass(options, RegisterPayoutDestination, { ...destinationChange, secrets: SecretBox });
      bindClass(options, SetDefaultPayoutDestination, destinationChange);
    }),
  routes: [
    createSettlement,
    listSettlements,
    getSettlement,
    listPayoutMethods,
    registerPayoutMethod,
    setDefaultPayoutMethod,
    dashboardListSettlements,
    dashboardGetSettlement,
    dashboardCreateSettlement,
  ],
};
