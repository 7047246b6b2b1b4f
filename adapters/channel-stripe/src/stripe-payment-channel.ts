import {
  ChannelCalls,
  CoreError,
  channelDisputeStatus,
  channelError,
  invalidCallback,
  refusedOrder,
  type ChannelLogger,
  type ProviderFailure,
  channelOrderStatus,
  channelRefundStatus,
  type AttemptFailureCode,
  type ChannelCapabilities,
  type ChannelCredentials,
  type ChannelCredentialStore,
  type ChannelDisputeStatus,
  type ChannelNotice,
  type ChannelOrderStatus,
  type ChannelRefundStatus,
  type ChannelStatement,
  type Clock,
  type Mode,
  type PaymentChannel,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type PlaceRefundRequest,
  type PlaceRefundResult,
  type StatementQuery,
} from '@payments/core';
import Stripe from 'stripe';
import { parseScopedId, scopedId, type ScopedStripeId } from './stripe-ids';
import {
  CANCELLATION_REASONS,
  DISPUTE_STATUSES,
  EVENT_KINDS,
  PAYMENT_ERROR_CODES,
  PAYMENT_INTENT_STATUSES,
  REFUND_ERROR_CODES,
  REFUND_FAILURE_REASONS,
  REFUND_STATUSES,
  UnmappedStripeValue,
  mapped,
} from './stripe-mapping';
import { readStatement } from './stripe-statement';

export const STRIPE_CHANNEL_NAME = 'stripe';

/** The settings `admin channel set stripe` stores per merchant and mode (all sealed). */
export const STRIPE_SETTINGS = {
  secretKey: 'secret_key',
  webhookSecret: 'webhook_secret',
  billingEmail: 'billing_email',
} as const;

export interface StripePaymentChannelOptions {
  /** Where each merchant's keys are (sealed); read on every call. */
  readonly credentials: Pick<ChannelCredentialStore, 'find' | 'list'>;
  readonly modes?: readonly Mode[];
  /** Builds the SDK client of one secret key; tests point it at nock. Default: `new Stripe(key, …)`. */
  readonly client?: (secretKey: string) => Stripe;
  /** Further tries the SDK makes after a network error, 409 or 5xx (with its own idempotency keys). Default 2. */
  readonly maxNetworkRetries?: number;
  readonly timeoutMs?: number;
  readonly pendingTimeoutMs?: number;
  /** Checks webhook timestamps; the system clock by default. */
  readonly clock?: Clock;
  /** Where a failed call is reported: which call and how, never a key or a body. */
  readonly logger?: ChannelLogger;
}

const DEFAULT_PENDING_TIMEOUT_MS = 15 * 60_000;
/** Stripe's own default tolerance for a webhook's timestamp. */
const WEBHOOK_TOLERANCE_S = 300;
/** The evidence fields of Stripe's dispute that take text; any other key of ours goes into `uncategorized_text`. */
const TEXT_EVIDENCE_FIELDS = new Set([
  'access_activity_log',
  'billing_address',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_tracking_number',
  'uncategorized_text',
]);

/** The Stripe SDK's error class name, or undefined for anything else. */
function stripeErrorType(error: unknown): string | undefined {
  return error instanceof Stripe.errors.StripeError ? error.type : undefined;
}

const expandedId = (value: string | { id: string } | null | undefined): string | undefined => (typeof value === 'string' ? value : value?.id);

/**
 * The `stripe` channel (docs/channels/stripe.md): PromptPay through Stripe PaymentIntents on the
 * official SDK, each merchant with its own Stripe account (keys per merchant and mode from the
 * credential store). Ids it hands out carry the merchant (`stripe-ids.ts`), so later calls know
 * whose keys to use. Webhooks are checked with the SDK's own verifier against the webhook secret
 * of the merchant that signed them; only the confirming query decides.
 */
export class StripePaymentChannel implements PaymentChannel {
  readonly capabilities: ChannelCapabilities;
  private readonly clients = new Map<string, Stripe>();
  private readonly clock: Clock;
  private readonly calls: ChannelCalls;

  constructor(private readonly options: StripePaymentChannelOptions) {
    this.clock = options.clock ?? { now: () => new Date() };
    this.calls = new ChannelCalls(STRIPE_CHANNEL_NAME, describeFailure, options.logger);
    this.capabilities = {
      name: STRIPE_CHANNEL_NAME,
      modes: options.modes ?? ['test', 'live'],
      methods: ['promptpay'],
      currencies: ['THB'],
      canSimulate: false,
      pendingTimeoutMs: options.pendingTimeoutMs ?? DEFAULT_PENDING_TIMEOUT_MS,
    };
  }

  async servesMerchant(merchantId: string, mode: Mode): Promise<boolean> {
    return (await this.options.credentials.find(STRIPE_CHANNEL_NAME, merchantId, mode)) !== undefined;
  }

  /**
   * Creates and confirms a PaymentIntent (`payment_method_types: ['promptpay']`), idempotent on our
   * reference (Stripe's `Idempotency-Key`), and answers its QR (`next_action.promptpay_display_qr_code.data`).
   */
  async placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    if (request.paymentMethod !== 'promptpay' || request.currency !== 'THB') {
      return refusedOrder('channel_error', 'The stripe channel takes PromptPay in THB only.');
    }
    if (request.merchantId === undefined) return refusedOrder('channel_error', 'The stripe channel needs the merchant of the order.');
    const merchantId = request.merchantId;
    try {
      const { stripe, credentials } = await this.clientOf(merchantId, request.mode);
      const intent = await stripe.paymentIntents.create(
        {
          amount: request.amount,
          currency: 'thb',
          allowed_payment_method_types: ['promptpay'],
          payment_method_data: { type: 'promptpay', billing_details: { email: credentials.secrets[STRIPE_SETTINGS.billingEmail] ?? '' } },
          confirm: true,
          metadata: { reference: request.reference, merchant: merchantId },
        },
        { idempotencyKey: `order:${request.reference}` },
      );
      if (intent.metadata['reference'] !== request.reference || intent.amount !== request.amount || intent.currency.toUpperCase() !== request.currency) {
        return refusedOrder('channel_error', 'Stripe answered a PaymentIntent that is not this order.');
      }
      const status = this.orderStatusOf(intent);
      if (status.status === 'failed') return refusedOrder(status.failureCode ?? 'channel_error', 'Stripe declined the payment.');
      const qrData = intent.next_action?.promptpay_display_qr_code?.data;
      if (!qrData) return refusedOrder('channel_error', 'Stripe answered no PromptPay QR for the order.');
      return { outcome: 'placed', channelOrderId: scopedId(merchantId, intent.id), nextAction: { type: 'qr_code', qrData } };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        const code = PAYMENT_ERROR_CODES[error.decline_code ?? error.code ?? ''];
        if (code !== undefined) return refusedOrder(code, 'Stripe declined the payment.');
      }
      return refusedOrder('channel_error', this.calls.report(request.mode, 'create_payment_intent', error, 'the order').message);
    }
  }

  /** `GET /v1/payment_intents/{id}` with its charge's balance transaction (whose availability is the settlement). */
  async queryOrder(mode: Mode, channelOrderId: string): Promise<ChannelOrderStatus> {
    const id = this.parse(channelOrderId, 'order');
    return this.calls.run(mode, 'retrieve_payment_intent', async () => {
      const { stripe } = await this.clientOf(id.merchantId, mode);
      const intent = await stripe.paymentIntents.retrieve(id.stripeId, { expand: ['latest_charge.balance_transaction'] });
      if (intent.id !== id.stripeId) throw channelError('Stripe answered about another PaymentIntent.');
      return this.orderStatusOf(intent);
    });
  }

  /**
   * Checks `Stripe-Signature` with the SDK's verifier (`webhooks.constructEvent`) against the
   * webhook secret of each merchant of this mode until one matches: the merchant whose secret
   * signed it is the one it is about. Then maps the event type (`EVENT_KINDS`); any other type is
   * refused as `invalid_callback`.
   */
  async verifyCallback(mode: Mode, headers: Readonly<Record<string, string | undefined>>, rawBody: string): Promise<ChannelNotice> {
    const header = headers['stripe-signature'] ?? headers['Stripe-Signature'];
    if (!header) throw new CoreError('invalid_signature', 'authentication', 'The callback has no Stripe-Signature.');
    const signed = await this.verifiedEvent(mode, header, rawBody);
    if (!signed) throw new CoreError('invalid_signature', 'authentication', 'The Stripe-Signature matches no webhook secret of this mode.');
    const { event, merchantId } = signed;
    if (event.livemode !== (mode === 'live')) throw invalidCallback(`The Stripe event is not a ${mode}-mode event.`);
    let kind;
    try {
      kind = mapped('event type', EVENT_KINDS, event.type);
    } catch (error) {
      if (error instanceof UnmappedStripeValue) throw invalidCallback(error.message);
      throw error;
    }
    const object: unknown = event.data.object;
    const objectId = fieldOf(object, 'id');
    if (typeof objectId !== 'string') throw invalidCallback('The Stripe event names no object.');
    if (kind.kind === 'dispute') return { kind: 'dispute', channelDisputeId: scopedId(merchantId, objectId) };
    const metadata = fieldOf(object, 'metadata');
    const reference = fieldOf(metadata, 'reference');
    if (typeof reference !== 'string' || reference === '') throw invalidCallback('The Stripe event is about an object this service did not make.');
    if (kind.kind === 'refund') return { kind: 'refund', channelRefundId: scopedId(merchantId, objectId), reference };
    return { kind: 'order', channelOrderId: scopedId(merchantId, objectId), reference, reportedStatus: kind.reportedStatus };
  }

  /** `POST /v1/payment_intents/{id}/cancel`; the confirming query settles what really happened. */
  async voidOrder(mode: Mode, channelOrderId: string): Promise<void> {
    const id = this.parse(channelOrderId, 'order');
    await this.calls.run(mode, 'cancel_payment_intent', async () => {
      const { stripe } = await this.clientOf(id.merchantId, mode);
      const intent = await stripe.paymentIntents.cancel(id.stripeId);
      if (intent.status !== 'canceled') throw channelError('Stripe did not cancel the PaymentIntent.');
    });
  }

  /** `GET /v1/disputes/{id}` with its PaymentIntent (whose metadata holds our reference). */
  async queryDispute(mode: Mode, channelDisputeId: string): Promise<ChannelDisputeStatus> {
    const id = this.parse(channelDisputeId, 'dispute');
    return this.calls.run(mode, 'retrieve_dispute', async () => {
      const { stripe } = await this.clientOf(id.merchantId, mode);
      const dispute = await stripe.disputes.retrieve(id.stripeId, { expand: ['payment_intent'] });
      const intent = dispute.payment_intent;
      if (dispute.id !== id.stripeId || intent === null || typeof intent === 'string')
        throw channelError('Stripe answered a dispute without its PaymentIntent.');
      const reference = intent.metadata['reference'];
      if (!reference) throw channelError('The disputed PaymentIntent is not one this service made.');
      return channelDisputeStatus({
        id: channelDisputeId,
        orderId: scopedId(id.merchantId, intent.id),
        reference,
        status: mapped('dispute status', DISPUTE_STATUSES, dispute.status),
        amount: dispute.amount,
        currency: dispute.currency.toUpperCase(),
        reason: dispute.reason,
      });
    });
  }

  /**
   * `POST /v1/disputes/{id}` with the evidence, staged (`submit: false`) so the whole merged set can
   * be sent again; Stripe submits what is staged at the dispute's due date. Our keys that are
   * Stripe's text fields go to them, the others into `uncategorized_text`.
   */
  async submitDisputeEvidence(mode: Mode, channelDisputeId: string, evidence: Readonly<Record<string, string>>): Promise<void> {
    const id = this.parse(channelDisputeId, 'dispute');
    await this.calls.run(mode, 'update_dispute', async () => {
      const { stripe } = await this.clientOf(id.merchantId, mode);
      const dispute = await stripe.disputes.update(id.stripeId, { evidence: stripeEvidence(evidence), submit: false });
      if (dispute.id !== id.stripeId) throw channelError('Stripe answered about another dispute.');
    });
  }

  /**
   * `POST /v1/refunds` of the PaymentIntent, idempotent on our refund id. Stripe's declines
   * (`REFUND_ERROR_CODES`, or a refund answered `failed`) are `refused`; anything else throws
   * `channel_error` and the refund reconciler places it again (same idempotency key).
   */
  async placeRefund(request: PlaceRefundRequest): Promise<PlaceRefundResult> {
    const id = this.parse(request.channelOrderId, 'order');
    try {
      const { stripe } = await this.clientOf(id.merchantId, request.mode);
      const refund = await stripe.refunds.create(
        { payment_intent: id.stripeId, amount: request.amount, metadata: { reference: request.reference, merchant: id.merchantId } },
        { idempotencyKey: `refund:${request.reference}` },
      );
      if (refund.metadata?.['reference'] !== request.reference || refund.amount !== request.amount)
        throw channelError('Stripe answered a refund that is not this one.');
      const status = mapped('refund status', REFUND_STATUSES, refund.status);
      if (status === 'failed') {
        const failureCode = mapped('refund failure reason', REFUND_FAILURE_REASONS, refund.failure_reason);
        return { outcome: 'refused', failureCode, message: 'Stripe declined the refund.' };
      }
      return { outcome: 'placed', channelRefundId: scopedId(id.merchantId, refund.id) };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code !== undefined && REFUND_ERROR_CODES[error.code] !== undefined) {
        return { outcome: 'refused', failureCode: REFUND_ERROR_CODES[error.code], message: 'Stripe declined the refund.' };
      }
      throw this.calls.failure(request.mode, 'create_refund', error);
    }
  }

  /** `GET /v1/refunds/{id}`: the confirming query of refund notices. */
  async queryRefund(mode: Mode, channelRefundId: string): Promise<ChannelRefundStatus> {
    const id = this.parse(channelRefundId, 'refund');
    return this.calls.run(mode, 'retrieve_refund', async () => {
      const { stripe } = await this.clientOf(id.merchantId, mode);
      const refund = await stripe.refunds.retrieve(id.stripeId);
      const reference = refund.metadata?.['reference'];
      const intentId = expandedId(refund.payment_intent);
      if (refund.id !== id.stripeId || !reference || !intentId) throw channelError('Stripe answered a refund this service did not make.');
      const status = mapped('refund status', REFUND_STATUSES, refund.status);
      return channelRefundStatus({
        id: channelRefundId,
        orderId: scopedId(id.merchantId, intentId),
        reference,
        status,
        amount: refund.amount,
        currency: refund.currency.toUpperCase(),
        ...(status === 'failed' ? { failureCode: mapped('refund failure reason', REFUND_FAILURE_REASONS, refund.failure_reason) } : {}),
      });
    });
  }

  /**
   * The balance transactions of every merchant's Stripe account in `mode`, oldest first, as
   * statement lines (`stripe-statement.ts`); the cursor holds each account's last one read.
   */
  async statement(mode: Mode, query: StatementQuery): Promise<ChannelStatement> {
    return this.calls.run(mode, 'list_balance_transactions', async () => {
      const accounts = await this.options.credentials.list(STRIPE_CHANNEL_NAME, mode);
      return readStatement(
        accounts.map((credentials) => ({ merchantId: credentials.merchantId, stripe: this.client(credentials) })),
        query,
        this.clock.now(),
      );
    });
  }

  /** Our status of a PaymentIntent, through the tables of `stripe-mapping.ts`. */
  private orderStatusOf(intent: Stripe.PaymentIntent): ChannelOrderStatus {
    const reference = intent.metadata['reference'];
    const merchantId = intent.metadata['merchant'];
    if (!reference || !merchantId) throw channelError('The PaymentIntent is not one this service made.');
    let status = mapped('PaymentIntent status', PAYMENT_INTENT_STATUSES, intent.status);
    let failureCode: AttemptFailureCode | undefined;
    if (status === 'pending_unless_failed') {
      const error = intent.last_payment_error;
      status = error ? 'failed' : 'pending';
      if (error) failureCode = mapped('payment error code', PAYMENT_ERROR_CODES, error.decline_code ?? error.code);
    } else if (status === 'failed') {
      failureCode = mapped('cancellation reason', CANCELLATION_REASONS, intent.cancellation_reason);
    }
    const charge = intent.latest_charge;
    const balance = charge !== null && typeof charge === 'object' ? charge.balance_transaction : null;
    const settledAt =
      status === 'paid' && balance !== null && typeof balance === 'object' && balance.status === 'available'
        ? new Date(balance.available_on * 1000)
        : undefined;
    return channelOrderStatus({
      id: scopedId(merchantId, intent.id),
      reference,
      status,
      amount: status === 'paid' ? intent.amount_received : intent.amount,
      currency: intent.currency.toUpperCase(),
      ...(failureCode ? { failureCode } : {}),
      ...(settledAt ? { settledAt } : {}),
    });
  }

  private async verifiedEvent(mode: Mode, header: string, rawBody: string): Promise<{ event: Stripe.Event; merchantId: string } | undefined> {
    const receivedAt = Math.floor(this.clock.now().getTime() / 1000);
    for (const credentials of await this.options.credentials.list(STRIPE_CHANNEL_NAME, mode)) {
      const secret = credentials.secrets[STRIPE_SETTINGS.webhookSecret];
      if (!secret) continue;
      try {
        const event = this.client(credentials).webhooks.constructEvent(rawBody, header, secret, WEBHOOK_TOLERANCE_S, undefined, receivedAt);
        return { event, merchantId: credentials.merchantId };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) continue;
        throw invalidCallback('The Stripe event is not JSON.');
      }
    }
    return undefined;
  }

  private async clientOf(merchantId: string, mode: Mode): Promise<{ stripe: Stripe; credentials: ChannelCredentials }> {
    const credentials = await this.options.credentials.find(STRIPE_CHANNEL_NAME, merchantId, mode);
    if (!credentials) throw channelError(`The stripe channel has no ${mode}-mode keys for this merchant.`);
    return { stripe: this.client(credentials), credentials };
  }

  /** One SDK client per secret key, kept: the SDK keeps its agent and its telemetry per client. */
  private client(credentials: ChannelCredentials): Stripe {
    const secretKey = credentials.secrets[STRIPE_SETTINGS.secretKey];
    if (!secretKey) throw channelError('The stripe channel has no secret key for this merchant.');
    let client = this.clients.get(secretKey);
    if (!client) {
      client =
        this.options.client?.(secretKey) ??
        new Stripe(secretKey, { maxNetworkRetries: this.options.maxNetworkRetries ?? 2, timeout: this.options.timeoutMs ?? 10_000, telemetry: false });
      this.clients.set(secretKey, client);
    }
    return client;
  }

  private parse(id: string, what: string): ScopedStripeId {
    const parsed = parseScopedId(id);
    if (!parsed) throw channelError(`The ${what} id is not one the stripe channel made.`);
    return parsed;
  }
}

/** A field of an object of no known shape (an event's object is one of many Stripe types). */
function fieldOf(value: unknown, name: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  const fields: Record<string, unknown> = { ...value };
  return Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
}

/** What is logged of a failed Stripe call, and the error's message. */
function describeFailure(error: unknown, what: string): ProviderFailure {
  return {
    fields: {
      error_type: stripeErrorType(error) ?? (error instanceof UnmappedStripeValue ? 'unmapped' : 'other'),
      ...(error instanceof Stripe.errors.StripeError ? { status: error.statusCode, code: error.code, request_id: error.requestId } : {}),
    },
    message: messageOf(error, what),
    ...(error instanceof UnmappedStripeValue ? { cause: error } : {}),
  };
}

/** What reaches an error message: our words and the unmapped value, never Stripe's message (it may echo input). */
function messageOf(error: unknown, what: string): string {
  if (error instanceof UnmappedStripeValue) return error.message;
  if (error instanceof CoreError) return error.message;
  const type = stripeErrorType(error);
  return type === undefined ? `Stripe could not be reached for ${what}.` : `Stripe refused ${what} (${type}).`;
}

function stripeEvidence(evidence: Readonly<Record<string, string>>): Stripe.DisputeUpdateParams.Evidence {
  const fields: Record<string, string> = {};
  const other: string[] = [];
  for (const [key, value] of Object.entries(evidence)) {
    if (TEXT_EVIDENCE_FIELDS.has(key) && key !== 'uncategorized_text') fields[key] = value;
    else other.push(key === 'uncategorized_text' ? value : `${key}: ${value}`);
  }
  return { ...fields, ...(other.length > 0 ? { uncategorized_text: other.join('\n') } : {}) };
}
