import type { NoticeOutbox } from '../../dashboard';
import type { ItemJob, JobPass } from '../../jobs';
import type { MerchantRepository } from '../../merchants';
import type { Clock, RandomSource, SecretBox, UnitOfWork } from '../../common';
import { MODES, newId, type Mode } from '../../common';
import { renderedAt, renderEventBody } from '../domain/event-rendering';
import { afterAttempt, WEBHOOK_LEASE_MS, WEBHOOK_TIMEOUT_MS, type WebhookDelivery, type WebhookDeliveryAttempt } from '../domain/webhook-delivery.entity';
import type { WebhookEndpoint, WebhookEndpointDisabledReason } from '../domain/webhook-endpoint.entity';
import type { WebhookCrypto } from '../ports/webhook-crypto.port';
import type { ClaimedDelivery, WebhookDeliveryRepository } from '../ports/webhook-delivery.repository.port';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';
import type { WebhookSender } from '../ports/webhook-sender.port';
import { AttemptRecorder } from './attempt-recorder';
import type { PlatformKeys } from './platform-keys.use-case';
import { webhookSignatureHeaders } from './webhook-signature';

/** An endpoint answering nothing but failures for this long is disabled. */
export const WEBHOOK_ENDPOINT_FAILING_DISABLE_MS = 5 * 24 * 60 * 60 * 1000;

/** An endpoint as one pass uses it: looked up once, its signing secret opened once. */
interface PassEndpoint {
  readonly endpoint: WebhookEndpoint;
  readonly secretHex: string;
}

/** What one send leaves to record, and whether the endpoint's health needs a look afterwards. */
interface DeliveryOutcome {
  readonly next: WebhookDelivery;
  readonly attempt: WebhookDeliveryAttempt | undefined;
  readonly health?: { readonly endpoint: WebhookEndpoint; readonly status: number | undefined; readonly at: Date };
}

/** How many deliveries one relay pass sends at once, each up to the 10 s timeout. */
export const WEBHOOK_CONCURRENCY = 50;

export interface RelayDeps {
  readonly uow: UnitOfWork;
  readonly deliveries: WebhookDeliveryRepository;
  readonly endpoints: WebhookEndpointRepository;
  readonly merchants: MerchantRepository;
  readonly notices: NoticeOutbox;
  readonly sender: WebhookSender;
  readonly crypto: WebhookCrypto;
  readonly secretBox: SecretBox;
  readonly platformKeys: PlatformKeys;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** How long a pass holds what it claimed (default WEBHOOK_LEASE_MS); must outlast the 10 s timeout. */
  readonly leaseMs?: number;
}

/**
 * The webhook relay, a background job: leases due deliveries, renders each event at its
 * endpoint's api_version, signs it, POSTs it through the WebhookSender and records the attempt.
 * Safe with any number of passes at once (the lease); a pass killed mid-delivery leaves its
 * deliveries due again when the lease runs out (at least once: that attempt may be repeated,
 * with the same event id).
 */
export class RelayWebhookDeliveries implements ItemJob<ClaimedDelivery, WebhookDelivery['status']> {
  readonly name = 'relay-webhooks';
  readonly lanes = MODES;
  /** Deliveries mostly wait on the network (up to the 10 s timeout each): many are sent at once. */
  readonly concurrency = WEBHOOK_CONCURRENCY;

  /** Shared by every pass of this relay, so attempts finishing together commit together. */
  private readonly recorder: AttemptRecorder;

  constructor(private readonly deps: RelayDeps) {
    this.recorder = new AttemptRecorder({ deliveries: deps.deliveries });
  }

  /** Leases up to `limit` due deliveries of a mode, oldest due first, leaving deferred ones unleased. */
  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<ClaimedDelivery[]> {
    const now = this.deps.clock.now();
    return this.deps.deliveries.claimDue(mode, now, new Date(now.getTime() + (this.deps.leaseMs ?? WEBHOOK_LEASE_MS)), limit, deferred);
  }

  idOf(claim: ClaimedDelivery): string {
    return claim.delivery.id;
  }

  progressed(status: WebhookDelivery['status']): boolean {
    return status === 'delivered';
  }

  /**
   * Sends one delivery and records the attempt with the delivery's new state in one transaction,
   * shared with the attempts of other deliveries that finish meanwhile (a crash before it leaves
   * the delivery leased, and it is sent again when the lease runs out: at least once, same event
   * id). Throws only when its own record could not be stored. Returns the delivery's status after
   * the attempt.
   */
  async handle(claim: ClaimedDelivery, pass: JobPass): Promise<WebhookDelivery['status']> {
    const key = await pass.memo('platform-key', () => this.deps.platformKeys.signingKey());
    // A batch mostly goes to a few endpoints: each is looked up (and its secret opened) once per
    // pass, not once per delivery. Still read fresh every pass, so a disabled endpoint stops at the next.
    const { delivery } = claim;
    const found = await pass.memo(`endpoint:${delivery.merchantId}:${delivery.endpointId}`, () =>
      this.deps.endpoints
        .findById(delivery.merchantId, delivery.endpointId)
        .then((endpoint): PassEndpoint | undefined =>
          endpoint ? { endpoint, secretHex: endpoint.status === 'enabled' ? this.deps.secretBox.open(endpoint.secretSealed) : '' } : undefined,
        ),
    );
    const outcome = await this.deliver(claim, key, found);
    await this.recorder.record({ next: outcome.next, heldUntil: delivery.lockedUntil ?? this.deps.clock.now(), attempt: outcome.attempt });
    if (outcome.health !== undefined) await this.checkHealth(outcome.health.endpoint, outcome.health.status, outcome.health.at);
    return outcome.next.status;
  }

  /** Sends one delivery (or stops it when its endpoint is gone) and says what to record. */
  private async deliver(claim: ClaimedDelivery, key: { id: string; privateKey: string }, found: PassEndpoint | undefined): Promise<DeliveryOutcome> {
    const { delivery, event } = claim;
    const endpoint = found?.endpoint;
    const startedAt = this.deps.clock.now();
    if (!endpoint || endpoint.status !== 'enabled') {
      // Deleted or disabled since it was queued: nothing is sent; the delivery stops here.
      const { nextRetryAt: _n, ...rest } = delivery;
      void _n;
      const stopped: WebhookDelivery = { ...rest, status: 'failed', lastError: endpoint ? 'endpoint disabled' : 'endpoint deleted', updated: startedAt };
      return { next: stopped, attempt: undefined };
    }
    const body = renderEventBody(event, endpoint.apiVersion);
    const headers = webhookSignatureHeaders(this.deps.crypto, {
      eventId: event.id,
      timestamp: Math.floor(startedAt.getTime() / 1000),
      body,
      secretHex: found.secretHex,
      secretVersion: endpoint.secretVersion,
      platformKeyId: key.id,
      platformPrivateKey: key.privateKey,
    });
    // The endpoint's url now, not at queueing: a retry after the merchant changed it goes to the new one.
    const response = await this.deps.sender.send({ url: endpoint.url, body, headers, timeoutMs: WEBHOOK_TIMEOUT_MS });
    const at = this.deps.clock.now();
    const next = afterAttempt({ ...delivery, url: endpoint.url }, response, at);
    const attempt: WebhookDeliveryAttempt = {
      id: newId(this.deps.random, 'webhook_delivery_attempt'),
      deliveryId: delivery.id,
      at: startedAt,
      latencyMs: response.latencyMs,
      apiVersion: renderedAt(endpoint.apiVersion),
      ...(response.status === undefined ? {} : { responseStatus: response.status }),
      ...(response.body === undefined ? {} : { responseBody: response.body }),
      ...(next.lastError === undefined || next.status === 'delivered' ? {} : { error: next.lastError }),
    };
    return { next, attempt, ...(next.status === 'delivered' ? {} : { health: { endpoint, status: response.status, at } }) };
  }

  /** Disables an endpoint that answered 410 Gone or has failed for five days without a success, with a notice. */
  private async checkHealth(endpoint: WebhookEndpoint, status: number | undefined, now: Date): Promise<void> {
    let reason: WebhookEndpointDisabledReason | undefined;
    if (status === 410) reason = 'gone';
    else {
      const health = await this.deps.deliveries.endpointHealth(endpoint.id);
      if (health.failingSince !== undefined && now.getTime() - health.failingSince.getTime() >= WEBHOOK_ENDPOINT_FAILING_DISABLE_MS) reason = 'failing';
    }
    if (reason === undefined) return;
    await this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const current = await self.deps.endpoints.findById(endpoint.merchantId, endpoint.id);
      if (!current || current.status !== 'enabled') return;
      await self.deps.endpoints.update({ ...current, status: 'disabled', disabledReason: reason, updated: now });
      const merchant = await self.deps.merchants.findById(endpoint.merchantId);
      if (!merchant) return;
      await self.deps.notices.append({
        id: newId(self.deps.random, 'notice'),
        merchantId: endpoint.merchantId,
        kind: 'webhook_endpoint.disabled',
        recipient: merchant.email,
        details: { endpoint: endpoint.id, url: endpoint.url, mode: endpoint.mode, reason },
        created: now,
      });
    });
  }
}
