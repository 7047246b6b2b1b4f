import {
  ApiKeyRepository,
  AuditLog,
  BalanceTransactionReader,
  CheckoutSessionRepository,
  Clock,
  DashboardSessionRepository,
  DisputeRepository,
  RefundRepository,
  EventOutbox,
  IdempotencyStore,
  JobItemFailures,
  Ledger,
  MerchantRepository,
  NoticeOutbox,
  PaymentAttemptRepository,
  PaymentIntentRepository,
  PayoutDestinationRepository,
  PlatformKeyRepository,
  ReconciliationStore,
  SettlementRepository,
  SigningKeyRepository,
  UnitOfWork,
  UserRepository,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type StoragePorts,
} from '@payments/core';
import { countDueWebhookDeliveries } from '@payments/storage-sql';
import { ContainerModule } from 'inversify';
import type { Knex } from 'knex';
import { AppKnex, AppWebhookBacklog } from './app-tokens';
import { bindBuilt, bindValue, resolve } from './wiring';

/** Every repository and the unit of work, from one SQL storage (SQLite or MySQL by the database URL). */
export const storageModule = (storage: StoragePorts, knex: Knex): ContainerModule =>
  new ContainerModule((options) => {
    bindValue(options, UnitOfWork, storage.uow);
    bindValue(options, MerchantRepository, storage.merchants);
    bindValue(options, UserRepository, storage.users);
    bindValue(options, ApiKeyRepository, storage.apiKeys);
    bindValue(options, PaymentIntentRepository, storage.intents);
    bindValue(options, CheckoutSessionRepository, storage.checkoutSessions);
    bindValue(options, PaymentAttemptRepository, storage.attempts);
    bindValue(options, AuditLog, storage.audit);
    bindValue(options, DashboardSessionRepository, storage.dashboardSessions);
    bindValue(options, EventOutbox, storage.events);
    bindValue(options, IdempotencyStore, storage.idempotency);
    bindValue(options, SigningKeyRepository, storage.signingKeys);
    bindValue(options, PayoutDestinationRepository, storage.payoutDestinations);
    bindValue(options, WebhookEndpointRepository, storage.webhookEndpoints);
    bindValue(options, NoticeOutbox, storage.notices);
    bindValue(options, WebhookDeliveryRepository, storage.webhookDeliveries);
    bindValue(options, PlatformKeyRepository, storage.platformKeys);
    bindValue(options, Ledger, storage.ledger);
    bindValue(options, BalanceTransactionReader, storage.balanceTransactions);
    bindValue(options, DisputeRepository, storage.disputes);
    bindValue(options, RefundRepository, storage.refunds);
    bindValue(options, JobItemFailures, storage.jobItemFailures);
    bindValue(options, SettlementRepository, storage.settlements);
    bindValue(options, ReconciliationStore, storage.reconciliation);
    bindValue(options, AppKnex, knex);
    bindBuilt(options, AppWebhookBacklog, (ctx) => {
      const clock = resolve(ctx, Clock);
      return () => countDueWebhookDeliveries(knex, clock.now());
    });
  });
