import type { AuditRecorder, User } from '../../dashboard';
import type { MerchantRepository } from '../../merchants';
import type { Clock, IdKind, RandomSource, SecretBox, UnitOfWork } from '../../common';
import { ID_FORMATS, invalidParameter, newId, notFound } from '../../common';
import { renderedAt, renderEventBody } from '../domain/event-rendering';
import type { DomainEvent, EventData } from '../domain/event.entity';
import { DEFAULT_EVENT_TYPES, isEventType, type EventType } from '../domain/event-types';
import { isSuccessStatus, WEBHOOK_TIMEOUT_MS } from '../domain/webhook-delivery.entity';
import type { WebhookCrypto } from '../ports/webhook-crypto.port';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';
import type { WebhookSender } from '../ports/webhook-sender.port';
import type { PlatformKeys } from './platform-keys.use-case';
import { webhookSignatureHeaders } from './webhook-signature';

/** What a test event sent, and what the endpoint answered. */
export interface WebhookTestEventResult {
  readonly type: EventType;
  /** The body sent, exactly (signed like a delivery's). */
  readonly body: string;
  readonly apiVersion: string;
  readonly status?: number;
  readonly error?: string;
  readonly responseBody?: string;
  readonly latencyMs: number;
}

export interface SendWebhookTestEventDeps {
  readonly uow: UnitOfWork;
  readonly endpoints: WebhookEndpointRepository;
  readonly merchants: MerchantRepository;
  readonly sender: WebhookSender;
  readonly crypto: WebhookCrypto;
  readonly secretBox: SecretBox;
  readonly platformKeys: PlatformKeys;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** The object an event type is about, and the status its example shows. */
const EXAMPLES: Readonly<Record<string, { readonly object: string; readonly kind: IdKind }>> = {
  payment_intent: { object: 'payment_intent', kind: 'payment_intent' },
  dispute: { object: 'dispute', kind: 'dispute' },
  settlement: { object: 'settlement', kind: 'settlement' },
  refund: { object: 'refund', kind: 'refund' },
};
const EXAMPLE_STATUS: Readonly<Record<string, string>> = {
  'dispute.updated': 'under_review',
  'dispute.closed': 'won',
  'refund.created': 'pending',
};

/** An id of `kind` made of its alphabet's first character only (`pi_000…`, `st_AAA…`): no object has it. */
function exampleId(kind: IdKind): string {
  const format = ID_FORMATS[kind];
  return format.prefix + format.alphabet.charAt(0).repeat(format.length);
}

/**
 * "Send test event": one signed example event of a type the merchant picks (by default the
 * endpoint's first, or payment_intent.succeeded), POSTed to the endpoint now, its answer given back
 * at once. Like a delivery it is rendered at the endpoint's api_version and signed with its secret
 * and the platform key, through the same egress-guarded sender. It is no event of the log: the
 * objects it names have ids of one repeated character (`pi_000000000000000000000000`), which the
 * API never issues, so a receiver that reads the object back finds none and acts on nothing. Sent
 * to a disabled endpoint too (to check it before enabling it again); audited.
 */
export class SendWebhookTestEvent {
  constructor(private readonly deps: SendWebhookTestEventDeps) {}

  async execute(actor: User, endpointId: string, requestedType: string | undefined): Promise<WebhookTestEventResult> {
    const endpoint = await this.deps.endpoints.findById(actor.merchantId, endpointId);
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    if (requestedType !== undefined && !isEventType(requestedType))
      throw invalidParameter('type', `type must be an event type such as payment_intent.succeeded; '${requestedType}' is not one.`);
    const type: EventType = requestedType ?? endpoint.enabledEvents.find(isEventType) ?? DEFAULT_EVENT_TYPES[2];
    const merchant = await this.deps.merchants.findById(actor.merchantId);
    if (!merchant) throw notFound('merchant', actor.merchantId);
    const [subject = '', action = ''] = type.split('.');
    const example = EXAMPLES[subject] ?? EXAMPLES.payment_intent;
    const now = this.deps.clock.now();
    const data: EventData = {
      id: exampleId(example.kind),
      object: example.object,
      status: EXAMPLE_STATUS[type] ?? action,
      merchant: merchant.id,
      mode: endpoint.mode,
      ...(subject === 'settlement' || subject === 'refund' ? { amount: { amount: 10_000, currency: merchant.settlementCurrency } } : {}),
      ...(subject === 'refund' ? { payment_intent: exampleId('payment_intent') } : {}),
    };
    const event: DomainEvent = {
      id: newId(this.deps.random, 'event'),
      type,
      merchantId: merchant.id,
      mode: endpoint.mode,
      created: new Date(Math.floor(now.getTime() / 1000) * 1000),
      data,
    };
    const apiVersion = renderedAt(endpoint.apiVersion);
    const body = renderEventBody(event, apiVersion);
    const key = await this.deps.platformKeys.signingKey();
    const headers = webhookSignatureHeaders(this.deps.crypto, {
      eventId: event.id,
      timestamp: Math.floor(now.getTime() / 1000),
      body,
      secretHex: this.deps.secretBox.open(endpoint.secretSealed),
      secretVersion: endpoint.secretVersion,
      platformKeyId: key.id,
      platformPrivateKey: key.privateKey,
    });
    const response = await this.deps.sender.send({ url: endpoint.url, body, headers, timeoutMs: WEBHOOK_TIMEOUT_MS });
    await this.deps.uow.run((transaction) =>
      transaction
        .bind(this.deps.audit)
        .recordAction(actor, 'webhook_endpoints.write', { type: 'webhook_endpoint', id: endpoint.id }, { change: 'test_event_sent', event_type: type }),
    );
    return {
      type,
      body,
      apiVersion,
      latencyMs: response.latencyMs,
      ...(response.status === undefined ? {} : { status: response.status }),
      ...(isSuccessStatus(response.status) ? {} : { error: response.error ?? (response.status === undefined ? 'no response' : `HTTP ${response.status}`) }),
      ...(response.body === undefined ? {} : { responseBody: response.body }),
    };
  }
}
