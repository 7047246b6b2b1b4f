import type { StoragePorts } from '@payments/core';
import { InMemoryApiKeyRepository } from './in-memory-api-key.repository';
import { InMemoryAuditLog } from './in-memory-audit-log';
import { InMemoryCheckoutSessionRepository } from './in-memory-checkout-session.repository';
import { InMemoryDashboardSessionRepository } from './in-memory-dashboard-session.repository';
import { InMemoryEventOutbox } from './in-memory-event-outbox.repository';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store.repository';
import { InMemoryMerchantRepository } from './in-memory-merchant.repository';
import { InMemoryPaymentAttemptRepository } from './in-memory-payment-attempt.repository';
import { InMemoryPaymentIntentRepository } from './in-memory-payment-intent.repository';
import { InMemoryStore } from './in-memory-store';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work';
import { InMemoryUserRepository } from './in-memory-user.repository';
import { InMemoryNoticeOutbox } from './in-memory-notice-outbox';
import { InMemoryPayoutDestinationRepository } from './in-memory-payout-destination.repository';
import { InMemorySigningKeyRepository } from './in-memory-signing-key.repository';
import { InMemoryWebhookEndpointRepository } from './in-memory-webhook-endpoint.repository';
import { InMemoryWebhookDeliveryRepository } from './in-memory-webhook-delivery.repository';
import { InMemoryPlatformKeyRepository } from './in-memory-platform-key.repository';
import { InMemoryLedger } from './in-memory-ledger';
import { InMemoryBalanceTransactionReader } from './in-memory-balance-transaction-reader';
import { InMemorySettlementRepository } from './in-memory-settlement.repository';
import { InMemoryDisputeRepository } from './in-memory-dispute.repository';
import { InMemoryRefundRepository } from './in-memory-refund.repository';
import { InMemoryJobItemFailures } from './in-memory-job-item-failures';
import { InMemoryReconciliationStore } from './in-memory-reconciliation-store';

/** The storage ports over one in-memory store; the same shape as `createSqlStorage`. */
export interface InMemoryStorage extends StoragePorts {
  readonly store: InMemoryStore;
}

export function createInMemoryStorage(store: InMemoryStore = new InMemoryStore()): InMemoryStorage {
  return {
    store,
    uow: new InMemoryUnitOfWork(store),
    merchants: new InMemoryMerchantRepository(store),
    users: new InMemoryUserRepository(store),
    apiKeys: new InMemoryApiKeyRepository(store),
    intents: new InMemoryPaymentIntentRepository(store),
    attempts: new InMemoryPaymentAttemptRepository(store),
    audit: new InMemoryAuditLog(store),
    checkoutSessions: new InMemoryCheckoutSessionRepository(store),
    dashboardSessions: new InMemoryDashboardSessionRepository(store),
    events: new InMemoryEventOutbox(store),
    idempotency: new InMemoryIdempotencyStore(store),
    signingKeys: new InMemorySigningKeyRepository(store),
    payoutDestinations: new InMemoryPayoutDestinationRepository(store),
    webhookEndpoints: new InMemoryWebhookEndpointRepository(store),
    notices: new InMemoryNoticeOutbox(store),
    webhookDeliveries: new InMemoryWebhookDeliveryRepository(store),
    platformKeys: new InMemoryPlatformKeyRepository(store),
    ledger: new InMemoryLedger(store),
    balanceTransactions: new InMemoryBalanceTransactionReader(store),
    disputes: new InMemoryDisputeRepository(store),
    refunds: new InMemoryRefundRepository(store),
    settlements: new InMemorySettlementRepository(store),
    jobItemFailures: new InMemoryJobItemFailures(),
    reconciliation: new InMemoryReconciliationStore(store),
  };
}
