import { renderEventBody } from '../../domain/event-rendering';
import { newId } from '../../domain/ids';
import {
  afterAttempt,
  WEBHOOK_LEASE_MS,
  WEBHOOK_TIMEOUT_MS,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
} from '../../domain/webhook-delivery.entity';
import { webhookSignatureHeaders } from '../../domain/webhook-signature';
import type { WebhookEndpoint } from '../../domain/webhook-endpoint.entity';
import type { Clock } from '../../ports/clock.port';
import type { MerchantRepository } from '../../ports/merchant.repository.port';
import type { NoticeOutbox } from '../../ports/notice-outbox.port';
import type { RandomSource } from '../../ports/random-source.port';
import type { SecretBox } from '../../ports/secret-box.port';
import type { UnitOfWork } from '../../ports/unit-of-work.port';
import type { ClaimedDelivery, WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import type { WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';
import type { WebhookSender } from '../../ports/webhook-sender.port';
import type { WebhookCrypto } from '../../ports/webhook-crypto.port';
import type { PlatformKeys } from '../platform-keys/platform-keys.use-case';

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

export interface RelayPassResult {
  readonly claimed: number;
  readonly delivered: number;
  readonly failed: number;
}

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
 * One relay pass: leases due deliveries, renders each event at its endpoint's api_version, signs
 * it, POSTs it through the WebhookSender and records the attempt. Safe with any number of passes
 * at once (the lease); a pass killed mid-delivery leaves its deliveries due again when the lease
 * runs out (at least once: that attempt may be repeated, with the same event id).
 */
export class RelayWebhookDeliveries {
  constructor(private readonly deps: RelayDeps) {}

  async execute(input: { limit: number }): Promise<RelayPassResult> {
    const now = this.deps.clock.now();
    const leaseUntil = new Date(now.getTime() + (this.deps.leaseMs ?? WEBHOOK_LEASE_MS));
    const claimed = await this.deps.deliveries.claimDue(now, leaseUntil, input.limit);
    if (claimed.length === 0) return { claimed: 0, delivered: 0, failed: 0 };
    const key = await this.deps.platformKeys.signingKey();
    // A batch mostly goes to a few endpoints: look each up (and open its secret) once per pass,
    // not once per delivery. Still read fresh every pass, so a disabled endpoint stops at the next.
    const endpoints = new Map<string, Promise<PassEndpoint | undefined>>();
    const endpointOf = (delivery: WebhookDelivery): Promise<PassEndpoint | undefined> => {
      const cacheKey = `${delivery.merchantId}\n${delivery.endpointId}`;
      let found = endpoints.get(cacheKey);
      if (found === undefined) {
        found = this.deps.endpoints.findById(delivery.merchantId, delivery.endpointId).then((endpoint) => (endpoint ? { endpoint, secretHex: endpoint.status === 'enabled' ? this.deps.secretBox.open(endpoint.secretSealed) : '' } : undefined));
        endpoints.set(cacheKey, found);
      }
      return found;
    };
    const outcomes = await Promise.all(claimed.map((claim) => this.deliver(claim, key, endpointOf)));
    // The whole pass's attempts are recorded in one transaction: one commit (one log flush) per
    // pass instead of one per delivery. Each delivery's state and its attempt still commit
    // together; a crash before this commit leaves the pass's deliveries leased, and they are sent
    // again when the lease runs out, as with a crash during the sends (at least once, same event id).
    await this.deps.uow.run(async () => {
      for (const outcome of outcomes) await this.deps.deliveries.recordAttempt(outcome.next, leaseUntil, outcome.attempt);
    });
    for (const outcome of outcomes) {
      if (outcome.health !== undefined) await this.checkHealth(outcome.health.endpoint, outcome.health.status, outcome.health.at);
    }
    return {
      claimed: claimed.length,
      delivered: outcomes.filter((outcome) => outcome.next.status === 'delivered').length,
      failed: outcomes.filter((outcome) => outcome.next.status !== 'delivered').length,
    };
  }

  /** Sends one delivery (or stops it when its endpoint is gone) and says what to record. */
  private async deliver(
    claim: ClaimedDelivery,
    key: { id: string; privateKey: string },
    endpointOf: (delivery: WebhookDelivery) => Promise<PassEndpoint | undefined>,
  ): Promise<DeliveryOutcome> {
    const { delivery, event } = claim;
    const found = await endpointOf(delivery);
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
      secretHex: (found as PassEndpoint).secretHex,
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
      ...(response.status === undefined ? {} : { responseStatus: response.status }),
      ...(next.lastError === undefined || next.status === 'delivered' ? {} : { error: next.lastError }),
    };
    return { next, attempt, ...(next.status === 'delivered' ? {} : { health: { endpoint, status: response.status, at } }) };
  }

  /** Disables an endpoint that answered 410 Gone or has failed for five days without a success, with a notice. */
  private async checkHealth(endpoint: WebhookEndpoint, status: number | undefined, now: Date): Promise<void> {
    let reason: string | undefined;
    if (status === 410) reason = 'gone';
    else {
      const health = await this.deps.deliveries.endpointHealth(endpoint.id);
      if (health.failingSince !== undefined && now.getTime() - health.failingSince.getTime() >= WEBHOOK_ENDPOINT_FAILING_DISABLE_MS) reason = 'failing';
    }
    if (reason === undefined) return;
    await this.deps.uow.run(async () => {
      const current = await this.deps.endpoints.findById(endpoint.merchantId, endpoint.id);
      if (!current || current.status !== 'enabled') return;
      await this.deps.endpoints.update({ ...current, status: 'disabled', updated: now });
      const merchant = await this.deps.merchants.findById(endpoint.merchantId);
      if (!merchant) return;
      await this.deps.notices.append({
        id: newId(this.deps.random, 'notice'),
        merchantId: endpoint.merchantId,
        kind: 'webhook_endpoint.disabled',
        recipient: merchant.email,
        details: { endpoint: endpoint.id, url: endpoint.url, mode: endpoint.mode, reason },
        created: now,
      });
    });
  }
}
