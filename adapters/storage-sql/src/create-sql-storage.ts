import type { StoragePorts } from '@payments/core';
import type { Knex } from 'knex';
import { KnexContext, type KnexContextOptions } from './knex-context';
import { KnexUnitOfWork } from './knex-unit-of-work';
import { KnexApiKeyRepository } from './repositories/knex-api-key.repository';
import { KnexAuditLog } from './repositories/knex-audit-log.repository';
import { KnexCheckoutSessionRepository } from './repositories/knex-checkout-session.repository';
import { KnexDashboardSessionRepository } from './repositories/knex-dashboard-session.repository';
import { KnexEventOutbox } from './repositories/knex-event-outbox.repository';
import { KnexIdempotencyStore } from './repositories/knex-idempotency-store.repository';
import { KnexMerchantRepository } from './repositories/knex-merchant.repository';
import { KnexPaymentAttemptRepository } from './repositories/knex-payment-attempt.repository';
import { KnexPaymentIntentRepository } from './repositories/knex-payment-intent.repository';
import { KnexUserRepository } from './repositories/knex-user.repository';
import { KnexNoticeOutbox } from './repositories/knex-notice-outbox.repository';
import { KnexPayoutDestinationRepository } from './repositories/knex-payout-destination.repository';
import { KnexSigningKeyRepository } from './repositories/knex-signing-key.repository';
import { KnexWebhookEndpointRepository } from './repositories/knex-webhook-endpoint.repository';
import { KnexWebhookDeliveryRepository } from './repositories/knex-webhook-delivery.repository';
import { KnexPlatformKeyRepository } from './repositories/knex-platform-key.repository';
import { KnexLedger } from './repositories/knex-ledger.repository';
import { KnexBalanceTransactionReader } from './repositories/knex-balance-transaction-reader.repository';
import { KnexRefundRepository } from './repositories/knex-refund.repository';
import { KnexDisputeRepository } from './repositories/knex-dispute.repository';
import { KnexSettlementRepository } from './repositories/knex-settlement.repository';
import { KnexJobItemFailures } from './repositories/knex-job-item-failures.repository';
import { KnexReconciliationStore } from './repositories/knex-reconciliation-store.repository';
import { KnexTraceContexts, type TraceContextStore } from './repositories/knex-trace-contexts.repository';

/**
 * The storage ports of one database, as the composition root binds them, and the trace contexts
 * the composition root's tracing keeps beside them (used only while tracing is on).
 */
export type SqlStorage = StoragePorts & { readonly traceContexts: TraceContextStore };

/**
 * Every repository over one shared context, so they all join the unit of work's transaction.
 * Build it once per knex instance: two storages on one knex would not see each other's
 * transactions.
 */
export function createSqlStorage(knex: Knex, options: KnexContextOptions = {}): SqlStorage {
  const context = new KnexContext(knex, options);
  return {
    uow: new KnexUnitOfWork(context),
    merchants: new KnexMerchantRepository(context),
    users: new KnexUserRepository(context),
    apiKeys: new KnexApiKeyRepository(context),
    intents: new KnexPaymentIntentRepository(context),
    attempts: new KnexPaymentAttemptRepository(context),
    audit: new KnexAuditLog(context),
    checkoutSessions: new KnexCheckoutSessionRepository(context),
    dashboardSessions: new KnexDashboardSessionRepository(context),
    events: new KnexEventOutbox(context),
    idempotency: new KnexIdempotencyStore(context),
    signingKeys: new KnexSigningKeyRepository(context),
    payoutDestinations: new KnexPayoutDestinationRepository(context),
    webhookEndpoints: new KnexWebhookEndpointRepository(context),
    notices: new KnexNoticeOutbox(context),
    webhookDeliveries: new KnexWebhookDeliveryRepository(context),
    platformKeys: new KnexPlatformKeyRepository(context),
    ledger: new KnexLedger(context),
    balanceTransactions: new KnexBalanceTransactionReader(context),
    disputes: new KnexDisputeRepository(context),
    refunds: new KnexRefundRepository(context),
    settlements: new KnexSettlementRepository(context),
    jobItemFailures: new KnexJobItemFailures(context),
    reconciliation: new KnexReconciliationStore(context),
    traceContexts: new KnexTraceContexts(context),
  };
}
