import type { ApiKeyRepository } from './merchants';
import type { AuditLog } from './dashboard';
import type { CheckoutSessionRepository } from './checkout';
import type { DashboardSessionRepository } from './dashboard';
import type { EventOutbox } from './webhooks';
import type { IdempotencyStore } from './merchants';
import type { Ledger } from './ledger';
import type { DisputeRepository } from './disputes';
import type { MerchantRepository } from './merchants';
import type { NoticeOutbox } from './dashboard';
import type { PaymentAttemptRepository } from './payments';
import type { PaymentIntentRepository } from './payments';
import type { PayoutDestinationRepository } from './settlements';
import type { SigningKeyRepository } from './dashboard';
import type { UnitOfWork } from './shared';
import type { UserRepository } from './dashboard';
import type { PlatformKeyRepository } from './webhooks';
import type { WebhookDeliveryRepository } from './webhooks';
import type { WebhookEndpointRepository } from './webhooks';
import type { SettlementRepository } from './settlements';
import type { JobItemFailures } from './jobs';

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
