import {
  Clock,
  DisputeRepository,
  Ledger,
  ListReconciliationBreaks,
  LockManager,
  PaymentAttemptRepository,
  PaymentChannelRegistry,
  PaymentIntentRepository,
  RandomSource,
  ReconcileChannel,
  ReconciliationAlerts,
  ReconciliationStore,
  RefundRepository,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import type { Capability } from './capability';
import { bindClass, value } from './wiring';

/** Reconciliation with the channels' statements (docs/reconciliation.md): the worker's job and the operator's list. */
export const reconciliationModule: Capability = {
  bindings: (config) =>
    new ContainerModule((options) => {
      bindClass(options, ReconcileChannel, {
        channels: PaymentChannelRegistry,
        ledger: Ledger,
        store: ReconciliationStore,
        attempts: PaymentAttemptRepository,
        intents: PaymentIntentRepository,
        refunds: RefundRepository,
        disputes: DisputeRepository,
        locks: LockManager,
        clock: Clock,
        random: RandomSource,
        alerts: ReconciliationAlerts,
        rules: value({ graceMs: config.reconGraceMs }),
      });
      bindClass(options, ListReconciliationBreaks, { store: ReconciliationStore });
    }),
  routes: [],
};
