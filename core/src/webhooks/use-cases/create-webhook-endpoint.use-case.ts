import { CURRENT_API_VERSION } from '../../merchants';
import type { AuditRecorder } from '../../dashboard';
import { hex } from '../../shared';
import { newId } from '../../shared';
import type { Mode } from '../../shared';
import type { User } from '../../dashboard';
import {
  validateEnabledEvents,
  validateWebhookDescription,
  validateWebhookUrl,
  WEBHOOK_SECRET_BYTES,
  type WebhookEndpoint,
} from '../domain/webhook-endpoint.entity';
import { notFound } from '../../shared';
import type { Clock } from '../../shared';
import type { MerchantRepository } from '../../merchants';
import type { RandomSource } from '../../shared';
import type { SecretBox } from '../../shared';
import type { UnitOfWork } from '../../shared';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';

export interface CreatedWebhookEndpoint {
  readonly endpoint: WebhookEndpoint;
  /** 64 hex characters (32 random bytes): shown once, stored only sealed. */
  readonly secret: string;
}

/**
 * Registers an endpoint of one mode: an https URL on a public host name (400 `invalid_url`),
 * known event types only (empty: every type), rendered at the account's pinned version (the
 * current one for an account never pinned), enabled. Its secret is returned once.
 */
export class CreateWebhookEndpoint {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly merchants: MerchantRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly secrets: SecretBox,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  async execute(actor: User, input: { mode: Mode; url: string; enabledEvents?: readonly string[]; description?: string }): Promise<CreatedWebhookEndpoint> {
    const url = validateWebhookUrl(input.url);
    const enabledEvents = validateEnabledEvents(input.enabledEvents ?? []);
    const description = input.description === undefined ? undefined : validateWebhookDescription(input.description);
    const merchant = await this.merchants.findById(actor.merchantId);
    if (!merchant) throw notFound('merchant', actor.merchantId);
    const secret = hex(this.random.bytes(WEBHOOK_SECRET_BYTES));
    const now = this.clock.now();
    const endpoint: WebhookEndpoint = {
      id: newId(this.random, 'webhook_endpoint'),
      merchantId: merchant.id,
      mode: input.mode,
      url,
      enabledEvents,
      ...(description === undefined ? {} : { description }),
      apiVersion: merchant.apiVersion ?? CURRENT_API_VERSION,
      status: 'enabled',
      secretSealed: this.secrets.seal(secret),
      secretVersion: 1,
      created: now,
      updated: now,
    };
    return this.uow.run(async () => {
      await this.endpoints.insert(endpoint);
      await this.audit.record({
        merchantId: merchant.id,
        userId: actor.id,
        action: 'webhook_endpoints.write',
        objectType: 'webhook_endpoint',
        objectId: endpoint.id,
        details: { change: 'created', mode: endpoint.mode },
      });
      return { endpoint, secret };
    });
  }
}
