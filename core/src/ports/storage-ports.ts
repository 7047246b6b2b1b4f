import type { ApiKeyRepository } from './api-key.repository.port';
import type { AuditLog } from './audit-log.port';
import type { CheckoutSessionRepository } from './checkout-session.repository.port';
import type { DashboardSessionRepository } from './dashboard-session.repository.port';
import type { EventOutbox } from './event-outbox.port';
import type { IdempotencyStore } from './idempotency-store.port';
import type { Ledger } from './ledger.port';
import type { DisputeRepository } from './dispute.repository.port';
import type { MerchantRepository } from './merchant.repository.port';
import type { NoticeOutbox } from './notice-outbox.port';
import type { PaymentAttemptRepository } from './payment-attempt.repository.port';
import type { PaymentIntentRepository } from './payment-intent.repository.port';
import type { PayoutDestinationRepository } from './payout-destination.repository.port';
import type { SigningKeyRepository } from './signing-key.repository.port';
import type { UnitOfWork } from './unit-of-work.port';
import type { UserRepository } from './user.repository.port';
import type { PlatformKeyRepository } from './platform-key.repository.port';
import type { WebhookDeliveryRepository } from './webhook-delivery.repository.port';
import type { WebhookEndpointRepository } from './webhook-endpoint.repository.port';
import type { SettlementRepository } from './settlement.repository.port';
import type { JobItemFailures } from './job-item-failures.port';

/**
 * The storage ports one storage adapter provides together, sharing one unit of work: what the
 * composition root binds and what the contract suites run against.
 */
export interface StoragePorts {
  readonly uow: UnitOfWork;
  readonly merchants: MerchantRepository;
  readonly users: UserRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly intents: PaymentIntentRepository;
  readonly attempts: PaymentAttemptRepository;
  readonly audit: AuditLog;
  readonly checkoutSessions: CheckoutSessionRepository;
  readonly dashboardSessions: DashboardSessionRepository;
  readonly events: EventOutbox;
  readonly idempotency: IdempotencyStore;
  readonly signingKeys: SigningKeyRepository;
  readonly payoutDestinations: PayoutDestinationRepository;
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly notices: NoticeOutbox;
  readonly webhookDeliveries: WebhookDeliveryRepository;
  readonly platformKeys: PlatformKeyRepository;
  readonly ledger: Ledger;
  readonly disputes: DisputeRepository;
  readonly settlements: SettlementRepository;
  readonly jobItemFailures: JobItemFailures;
}
