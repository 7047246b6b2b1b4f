import type { AuditRecorder, User } from '../../dashboard';
import type { MerchantRepository } from '../../merchants';
import { CURRENT_API_VERSION } from '../../merchants';
import type { Clock, Mode, RandomSource, SecretBox, UnitOfWork } from '../../common';
import { hex, newId, notFound } from '../../common';
import {
  validateEnabledEvents,
  validateWebhookDescription,
  validateWebhookUrl,
  WEBHOOK_SECRET_BYTES,
  type WebhookEndpoint,
} from '../domain/webhook-endpoint.entity';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';

export interface CreatedWebhookEndpoint {
  readonly endpoint: WebhookEndpoint;
  /** 64 hex characters (32 random bytes): shown once, stored only sealed. */
  readonly secret: string;
}
export interface CreateWebhookEndpointDeps {
  readonly uow: UnitOfWork;
  readonly merchants: MerchantRepository;
  readonly endpoints: WebhookEndpointRepository;
  readonly secrets: SecretBox;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/**
 * Registers an endpoint of one mode: an https URL on a public host name (400 `invalid_url`),
 * known event types only (empty: every type), rendered at the account's pinned version (the
 * current one for an account never pinned), enabled. Its secret is returned once.
 */
export class CreateWebhookEndpoint {
  constructor(private readonly deps: CreateWebhookEndpointDeps) {}

  async execute(actor: User, input: { mode: Mode; url: string; enabledEvents?: readonly string[]; description?: string }): Promise<CreatedWebhookEndpoint> {
    const url = validateWebhookUrl(input.url);
    const enabledEvents = validateEnabledEvents(input.enabledEvents ?? []);
    const description = input.description === undefined ? undefined : validateWebhookDescription(input.description);
    const merchant = await this.deps.merchants.findById(actor.merchantId);
    if (!merchant) throw notFound('merchant', actor.merchantId);
    const secret = hex(this.deps.random.bytes(WEBHOOK_SECRET_BYTES));
    const now = this.deps.clock.now();
    const endpoint: WebhookEndpoint = {
      id: newId(this.deps.random, 'webhook_endpoint'),
      merchantId: merchant.id,
      mode: input.mode,
      url,
      enabledEvents,
      ...(description === undefined ? {} : { description }),
      apiVersion: merchant.apiVersion ?? CURRENT_API_VERSION,
      status: 'enabled',
      secretSealed: this.deps.secrets.seal(secret),
      secretVersion: 1,
      created: now,
      updated: now,
    };
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      await self.deps.endpoints.insert(endpoint);
      await self.deps.audit.recordAction(
        actor,
        'webhook_endpoints.write',
        { type: 'webhook_endpoint', id: endpoint.id },
        { change: 'created', mode: endpoint.mode },
      );
      return { endpoint, secret };
    });
  }
}
