import type { AuditLog, DashboardSessionRepository, NoticeOutbox, SigningKeyRepository, UserRepository } from './dashboard';
import type { DisputeRepository } from './disputes';
import type { JobItemFailures } from './jobs';
import type { BalanceTransactionReader, Ledger } from './ledger';
import type { ApiKeyRepository, IdempotencyStore, MerchantRepository } from './merchants';
import type { CheckoutSessionRepository, PaymentAttemptRepository, PaymentIntentRepository } from './payments';
import type { ReconciliationStore } from './reconciliation';
import type { RefundRepository } from './refunds';
import type { PayoutDestinationRepository, SettlementRepository } from './settlements';
import type { UnitOfWork } from './common';
import type { EventOutbox, PlatformKeyRepository, WebhookDeliveryRepository, WebhookEndpointRepository } from './webhooks';

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
  readonly balanceTransactions: BalanceTransactionReader;
  readonly disputes: DisputeRepository;
  readonly refunds: RefundRepository;
  readonly settlements: SettlementRepository;
  readonly jobItemFailures: JobItemFailures;
  readonly reconciliation: ReconciliationStore;
}
