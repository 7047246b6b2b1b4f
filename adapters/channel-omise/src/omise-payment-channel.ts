import {
  ChannelCalls,
  CoreError,
  channelDisputeStatus,
  channelError,
  invalidCallback,
  refusedOrder,
  type ChannelLogger,
  type NextAction,
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
import Omise from 'omise';
import { isOmiseError, OmiseTimeout, omiseErrorCode, withTimeout, type OmiseClient } from './omise-api';
import { parseScopedId, parseScopedRefundId, scopedId, scopedRefundId, type ScopedOmiseId, type ScopedOmiseRefundId } from './omise-ids';
import {
  CHARGE_ERROR_CODES,
  CHARGE_FAILURE_CODES,
  CHARGE_STATUSES,
  CLAIMED_CHARGE_STATUSES,
  DISPUTE_STATUSES,
  EVENT_KINDS,
  REFUND_ERROR_CODES,
  UnmappedOmiseValue,
  mapped,
} from './omise-mapping';
import { readStatement } from './omise-statement';

export const OMISE_CHANNEL_NAME = 'omise';

/** The settings `admin channel set omise` stores per merchant and mode (all sealed). */
export const OMISE_SETTINGS = {
  secretKey: 'secret_key',
  publicKey: 'public_key',
} as const;

/** The Omise API version the channel is written against (sent as `Omise-Version`). */
export const OMISE_API_VERSION = '2019-05-29';

export interface OmisePaymentChannelOptions {
  /** Where each merchant's keys are (sealed); read on every call. */
  readonly credentials: Pick<ChannelCredentialStore, 'find' | 'list'>;
  readonly modes?: readonly Mode[];
  /** Builds the SDK client of one secret key; tests may point it elsewhere. Default: `Omise({ secretKey, omiseVersion })`. */
  readonly client?: (secretKey: string) => OmiseClient;
  /** How long one Omise call may take (the SDK sets no timeout). Default 10 s. */
  readonly timeoutMs?: number;
  readonly pendingTimeoutMs?: number;
  /**
   * How far back placing an order lists the account's charges for one of its reference, besides
   * Omise's search (whose index may lag a fresh charge). Default 24 h.
   */
  readonly lookupWindowMs?: number;
  readonly clock?: Clock;
  /** Where a failed call is reported: which call and how, never a key or a body. */
  readonly logger?: ChannelLogger;
}

const DEFAULT_PENDING_TIMEOUT_MS = 15 * 60_000;
const DEFAULT_LOOKUP_WINDOW_MS = 24 * 3600_000;
/** Charges listed per page when looking an order up, and the most pages read before giving up (refused: never a second charge). */
const LOOKUP_PAGE = 100;
const MAX_LOOKUP_PAGES = 20;

/** How each method is charged: its source type, and the payer's next step from the charge Omise answers. */
interface ChargedMethod {
  readonly source: 'promptpay' | 'truemoney_jumpapp';
  /** Omise sends the payer back to `return_uri` after its own page: such a method needs the intent's return URL. */
  readonly returns: boolean;
  readonly nextAction: (charge: Omise.Charges.ICharge) => NextAction | undefined;
}

/** The https address Omise answered, or undefined: nothing else is handed to a payer. */
const httpsOnly = (url: string | null | undefined): string | undefined => (typeof url === 'string' && url.startsWith('https://') ? url : undefined);

const CHARGED_METHODS: Readonly<Record<string, ChargedMethod>> = {
  // The QR arrives as an image to download (`scannable_code.image.download_uri`), not as its payload.
  promptpay: {
    source: 'promptpay',
    returns: false,
    nextAction: (charge) => {
      const url = httpsOnly(charge.source?.scannable_code?.image?.download_uri);
      return url === undefined ? undefined : { type: 'qr_code', url };
    },
  },
  // TrueMoney's app redirection: the payer approves in the TrueMoney app at `authorize_uri`.
  truemoney: {
    source: 'truemoney_jumpapp',
    returns: true,
    nextAction: (charge) => {
      const url = httpsOnly(charge.authorize_uri);
      return url === undefined ? undefined : { type: 'redirect', url };
    },
  },
};

/**
 * The `omise` channel (docs/channels/omise.md): PromptPay through Omise (Opn Payments) charges on
 * the official SDK, each merchant with its own Omise account (keys per merchant and mode from the
 * credential store). Omise has no idempotency keys, so placing an order looks the reference up
 * before it creates a charge; its webhooks are unsigned, so a delivery is only a hint that the
 * fetched charge (refund, dispute) confirms or contradicts.
 */
export class OmisePaymentChannel implements PaymentChannel {
  readonly capabilities: ChannelCapabilities;
  private readonly clients = new Map<string, OmiseClient>();
  private readonly clock: Clock;
  private readonly calls: ChannelCalls;

  constructor(private readonly options: OmisePaymentChannelOptions) {
    this.clock = options.clock ?? { now: () => new Date() };
    this.calls = new ChannelCalls(OMISE_CHANNEL_NAME, describeFailure, options.logger);
    this.capabilities = {
      name: OMISE_CHANNEL_NAME,
      modes: options.modes ?? ['test', 'live'],
      methods: Object.keys(CHARGED_METHODS),
      currencies: ['THB'],
      canSimulate: false,
      pendingTimeoutMs: options.pendingTimeoutMs ?? DEFAULT_PENDING_TIMEOUT_MS,
    };
  }

  async servesMerchant(merchantId: string, mode: Mode): Promise<boolean> {
    const credentials = await this.options.credentials.find(OMISE_CHANNEL_NAME, merchantId, mode);
    return credentials?.secrets[OMISE_SETTINGS.secretKey] !== undefined;
  }

  /**
   * Looks the reference up (`findCharge`), and only when no charge of it exists creates one with an
   * inline source of the method (`POST /charges`, our reference in its metadata): `promptpay`,
   * whose QR image (`scannable_code.image.download_uri`) is the next action's `url`, or
   * `truemoney_jumpapp`, whose `authorize_uri` the payer is redirected to and which returns them to
   * the intent's return URL (an order without one is refused).
   */
  async placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const method = Object.hasOwn(CHARGED_METHODS, request.paymentMethod) ? CHARGED_METHODS[request.paymentMethod] : undefined;
    if (!method || request.currency !== 'THB') return refusedOrder('channel_error', 'The omise channel takes PromptPay and TrueMoney in THB only.');
    if (request.merchantId === undefined) return refusedOrder('channel_error', 'The omise channel needs the merchant of the order.');
    const returnUri = httpsOnly(request.returnUrl);
    if (method.returns && returnUri === undefined) {
      return refusedOrder('channel_error', `Omise sends a ${request.paymentMethod} payer back to the payment intent's return_url: create the intent with one.`);
    }
    const merchantId = request.merchantId;
    let operation = 'find_charge';
    try {
      const omise = await this.clientOf(merchantId, request.mode);
      let charge = await this.findCharge(omise, request.reference);
      if (!charge) {
        operation = 'create_charge';
        charge = await this.timed(() =>
          omise.charges.create({
            amount: request.amount,
            currency: 'thb',
            source: { type: method.source, amount: request.amount, currency: 'thb' },
            description: `Payment ${request.reference}`,
            metadata: { reference: request.reference, merchant: merchantId },
            expires_at: request.expiresAt.toISOString(),
            ...(method.returns ? { return_uri: returnUri } : {}),
            ...(request.callbackUrl.startsWith('https://') ? { webhook_endpoints: [request.callbackUrl] as [string] } : {}),
          }),
        );
      }
      if (
        charge.metadata['reference'] !== request.reference ||
        charge.amount !== request.amount ||
        charge.currency.toUpperCase() !== request.currency ||
        charge.source?.type !== method.source
      ) {
        return refusedOrder('channel_error', 'Omise answered a charge that is not this order.');
      }
      const status = await this.orderStatusOf(omise, charge);
      if (status.status === 'failed') return refusedOrder(status.failureCode ?? 'channel_error', 'Omise declined the payment.');
      const nextAction = method.nextAction(charge);
      if (!nextAction)
        return refusedOrder('channel_error', `Omise answered no ${method.returns ? 'https address to send the payer to' : 'https QR image'} for the order.`);
      return { outcome: 'placed', channelOrderId: scopedId(merchantId, charge.id), nextAction };
    } catch (error) {
      if (isOmiseError(error) && CHARGE_ERROR_CODES[error.code] !== undefined)
        return refusedOrder(CHARGE_ERROR_CODES[error.code], 'Omise declined the payment.');
      return refusedOrder('channel_error', this.calls.report(request.mode, operation, error, 'the order').message);
    }
  }

  /** `GET /charges/{id}`, and its transaction once paid (whose `transferable_at` is the settlement). */
  async queryOrder(mode: Mode, channelOrderId: string): Promise<ChannelOrderStatus> {
    const id = this.parse(channelOrderId, 'order');
    return this.calls.run(mode, 'retrieve_charge', async () => {
      const omise = await this.clientOf(id.merchantId, mode);
      const charge = await this.timed(() => omise.charges.retrieve(id.omiseId));
      if (charge.id !== id.omiseId) throw channelError('Omise answered about another charge.');
      return this.orderStatusOf(omise, charge);
    });
  }

  /**
   * Omise signs no delivery: the body only names an object, and the adapter fetches it with the
   * keys of the merchant the object belongs to (`metadata.merchant`, or every merchant of the mode
   * for a dispute, whose metadata is Omise's). An order delivery whose claim the fetched charge
   * contradicts (it says successful, the charge is pending or failed; it says failed, the charge is
   * paid) is refused as `invalid_callback` and changes nothing; a body that is not an Omise event,
   * or names nothing this service made, is refused alike. A notice that stands still decides
   * nothing: the service runs the confirming query itself.
   */
  async verifyCallback(mode: Mode, _headers: Readonly<Record<string, string | undefined>>, rawBody: string): Promise<ChannelNotice> {
    const event = parseEvent(rawBody);
    if (event.livemode !== undefined && event.livemode !== (mode === 'live')) throw invalidCallback(`The Omise event is not a ${mode}-mode event.`);
    let kind;
    try {
      kind = mapped('event key', EVENT_KINDS, event.key);
    } catch (error) {
      if (error instanceof UnmappedOmiseValue) throw invalidCallback(error.message);
      throw error;
    }
    const object = event.data;
    const objectId = fieldOf(object, 'id');
    if (typeof objectId !== 'string' || !/^[A-Za-z0-9_]{1,255}$/.test(objectId)) throw invalidCallback('The Omise event names no object.');
    const claimedMerchant = fieldOf(fieldOf(object, 'metadata'), 'merchant');
    if (kind.kind === 'dispute') {
      const merchantId = await this.disputeOwner(mode, objectId);
      return { kind: 'dispute', channelDisputeId: scopedId(merchantId, objectId) };
    }
    if (typeof claimedMerchant !== 'string' || !(await this.servesMerchant(claimedMerchant, mode))) {
      throw invalidCallback('The Omise event is about an object this service did not make.');
    }
    if (kind.kind === 'refund') {
      const chargeId = fieldOf(object, 'charge');
      if (typeof chargeId !== 'string') throw invalidCallback('The Omise refund event names no charge.');
      const refundId = scopedRefundId(claimedMerchant, chargeId, objectId);
      const refund = await this.queryRefund(mode, refundId).catch((error: unknown) => {
        throw notConfirmed(error);
      });
      return { kind: 'refund', channelRefundId: refundId, reference: refund.reference };
    }
    const channelOrderId = scopedId(claimedMerchant, objectId);
    const charge = await this.queryOrder(mode, channelOrderId).catch((error: unknown) => {
      throw notConfirmed(error);
    });
    const claimed = kind.reportedStatus === 'by_status' ? CLAIMED_CHARGE_STATUSES[String(fieldOf(object, 'status'))] : kind.reportedStatus;
    if (claimed === undefined) throw invalidCallback('The Omise charge event claims a status this channel does not map.');
    if ((claimed === 'paid' && charge.status !== 'paid') || (claimed === 'failed' && charge.status === 'paid')) {
      throw invalidCallback(`The Omise delivery claims the charge is ${claimed}; the charge says ${charge.status}. Ignored.`);
    }
    return { kind: 'order', channelOrderId, reference: charge.reference, reportedStatus: claimed };
  }

  /** `POST /charges/{id}/expire`: a pending PromptPay charge can no longer be paid. */
  async voidOrder(mode: Mode, channelOrderId: string): Promise<void> {
    const id = this.parse(channelOrderId, 'order');
    await this.calls.run(mode, 'expire_charge', async () => {
      const omise = await this.clientOf(id.merchantId, mode);
      const charge = await this.timed(() => omise.charges.expire(id.omiseId));
      if (charge.id !== id.omiseId) throw channelError('Omise answered about another charge.');
    });
  }

  /** `GET /disputes/{id}`, then its charge (whose metadata holds our reference). */
  async queryDispute(mode: Mode, channelDisputeId: string): Promise<ChannelDisputeStatus> {
    const id = this.parse(channelDisputeId, 'dispute');
    return this.calls.run(mode, 'retrieve_dispute', async () => {
      const omise = await this.clientOf(id.merchantId, mode);
      const dispute = await this.timed(() => omise.disputes.retrieve(id.omiseId));
      const chargeId = typeof dispute.charge === 'string' ? dispute.charge : dispute.charge.id;
      if (dispute.id !== id.omiseId) throw channelError('Omise answered about another dispute.');
      const charge = typeof dispute.charge === 'string' ? await this.timed(() => omise.charges.retrieve(chargeId)) : dispute.charge;
      const reference: unknown = charge.metadata['reference'];
      if (typeof reference !== 'string' || reference === '') throw channelError('The disputed charge is not one this service made.');
      return channelDisputeStatus({
        id: channelDisputeId,
        orderId: scopedId(id.merchantId, charge.id),
        reference,
        status: mapped('dispute status', DISPUTE_STATUSES, dispute.status),
        amount: dispute.amount,
        currency: dispute.currency.toUpperCase(),
        ...(dispute.reason_code ? { reason: dispute.reason_code } : {}),
      });
    });
  }

  /**
   * `PATCH /disputes/{id}` with `message`: Omise's API takes a dispute's response as one text (its
   * documents are uploaded in the dashboard), so the whole merged set goes as `key: value` lines,
   * replacing the message sent before: sending it again is harmless.
   */
  async submitDisputeEvidence(mode: Mode, channelDisputeId: string, evidence: Readonly<Record<string, string>>): Promise<void> {
    const id = this.parse(channelDisputeId, 'dispute');
    await this.calls.run(mode, 'update_dispute', async () => {
      const omise = await this.clientOf(id.merchantId, mode);
      const message = Object.entries(evidence)
        .map(([key, value]) => `${key}: ${value}`)
        .join('\n');
      const dispute = await this.timed(() => omise.disputes.update(id.omiseId, { message }));
      if (dispute.id !== id.omiseId) throw channelError('Omise answered about another dispute.');
    });
  }

  /**
   * `POST /charges/{id}/refunds`, looked up first: Omise has no idempotency keys, so the charge's
   * refunds (`GET /charges/{id}/refunds`) are read for one of our reference before one is made.
   * Omise's declines (`REFUND_ERROR_CODES`) are `refused`; anything else throws `channel_error` and
   * the refund reconciler places it again (and finds the one placed, if it was).
   */
  async placeRefund(request: PlaceRefundRequest): Promise<PlaceRefundResult> {
    const id = this.parse(request.channelOrderId, 'order');
    try {
      const omise = await this.clientOf(id.merchantId, request.mode);
      const placed = await this.timed(() => omise.charges.listRefunds(id.omiseId));
      let refund = placed.data.find((candidate) => candidate.metadata?.['reference'] === request.reference);
      refund ??= await this.timed(() =>
        omise.charges.createRefund(id.omiseId, { amount: request.amount, metadata: { reference: request.reference, merchant: id.merchantId } }),
      );
      if (refund.metadata?.['reference'] !== request.reference || refund.amount !== request.amount || refund.charge !== id.omiseId)
        throw channelError('Omise answered a refund that is not this one.');
      return { outcome: 'placed', channelRefundId: scopedRefundId(id.merchantId, id.omiseId, refund.id) };
    } catch (error) {
      if (isOmiseError(error) && REFUND_ERROR_CODES[error.code] !== undefined) {
        return { outcome: 'refused', failureCode: REFUND_ERROR_CODES[error.code], message: 'Omise declined the refund.' };
      }
      throw this.calls.failure(request.mode, 'create_refund', error);
    }
  }

  /**
   * `GET /charges/{charge}/refunds/{id}`: the confirming query of refund notices. An Omise refund
   * exists only once Omise took it from the balance: it is `succeeded` (there is no failed refund,
   * only a refused create).
   */
  async queryRefund(mode: Mode, channelRefundId: string): Promise<ChannelRefundStatus> {
    const id = this.parseRefund(channelRefundId);
    return this.calls.run(mode, 'retrieve_refund', async () => {
      const omise = await this.clientOf(id.merchantId, mode);
      const refund = await this.timed(() => omise.charges.retrieveRefund(id.chargeId, id.refundId));
      const reference: unknown = refund.metadata?.['reference'];
      if (refund.id !== id.refundId || refund.charge !== id.chargeId || typeof reference !== 'string' || reference === '') {
        throw channelError('Omise answered a refund this service did not make.');
      }
      return channelRefundStatus({
        id: channelRefundId,
        orderId: scopedId(id.merchantId, id.chargeId),
        reference,
        status: 'succeeded',
        amount: refund.amount,
        currency: refund.currency.toUpperCase(),
      });
    });
  }

  /**
   * The transactions of every merchant's Omise account in `mode`, oldest first, as statement lines
   * (`omise-statement.ts`); the cursor holds how many of each account's were read.
   */
  async statement(mode: Mode, query: StatementQuery): Promise<ChannelStatement> {
    return this.calls.run(mode, 'list_transactions', async () => {
      const accounts = await this.options.credentials.list(OMISE_CHANNEL_NAME, mode);
      return readStatement(
        accounts.map((credentials) => ({
          merchantId: credentials.merchantId,
          omise: this.client(credentials),
          call: <T>(run: () => Promise<T>) => this.timed(run),
        })),
        query,
        this.clock.now(),
      );
    });
  }

  /**
   * The charge of `reference` in this account, if one exists: Omise's search (`GET /search`,
   * scope charge, our reference as the query; its index may lag a charge made a moment ago), then
   * the charges made within the lookup window, newest first (`GET /charges`). Only an exact match
   * of `metadata.reference` counts. When the window holds more charges than the lookup reads, it
   * throws: not knowing is never taken for absent.
   */
  private async findCharge(omise: OmiseClient, reference: string): Promise<Omise.Charges.ICharge | undefined> {
    const isOurs = (charge: Omise.Charges.ICharge): boolean => charge.metadata?.['reference'] === reference;
    const searched = await this.timed(() => omise.search.list({ scope: 'charge', query: reference, order: 'reverse_chronological' }));
    const found = searched.data.find(isOurs);
    if (found) return found;
    const from = new Date(this.clock.now().getTime() - (this.options.lookupWindowMs ?? DEFAULT_LOOKUP_WINDOW_MS)).toISOString();
    for (let page = 0; page < MAX_LOOKUP_PAGES; page++) {
      const offset = page * LOOKUP_PAGE;
      const listed = await this.timed(() => omise.charges.list({ from, offset, limit: LOOKUP_PAGE, order: 'reverse_chronological' }));
      const match = listed.data.find(isOurs);
      if (match) return match;
      if (offset + listed.data.length >= listed.total || listed.data.length === 0) return undefined;
    }
    throw channelError('Omise holds more charges in the lookup window than the channel reads; no charge was made.');
  }

  /** Our status of a charge, through the tables of `omise-mapping.ts`; a paid one's transaction says whether it settled. */
  private async orderStatusOf(omise: OmiseClient, charge: Omise.Charges.ICharge): Promise<ChannelOrderStatus> {
    const reference: unknown = charge.metadata?.['reference'];
    const merchantId: unknown = charge.metadata?.['merchant'];
    if (typeof reference !== 'string' || typeof merchantId !== 'string' || !reference || !merchantId) {
      throw channelError('The charge is not one this service made.');
    }
    const mappedStatus = mapped('charge status', CHARGE_STATUSES, charge.status);
    let status: ChannelOrderStatus['status'];
    let failureCode: AttemptFailureCode | undefined;
    if (mappedStatus === 'failed_by_code') {
      status = 'failed';
      failureCode = mapped('charge failure code', CHARGE_FAILURE_CODES, charge.failure_code);
    } else if (mappedStatus === 'expired' || mappedStatus === 'reversed') {
      status = 'failed';
      failureCode = mappedStatus === 'expired' ? 'expired' : 'canceled';
    } else {
      status = mappedStatus;
    }
    let settledAt: Date | undefined;
    const transactionOf = charge.transaction;
    if (status === 'paid' && transactionOf) {
      const transaction = typeof transactionOf === 'string' ? await this.timed(() => omise.transactions.retrieve(transactionOf)) : transactionOf;
      const transferableAt = new Date(transaction.transferable_at);
      if (!Number.isNaN(transferableAt.getTime()) && transferableAt <= this.clock.now()) settledAt = transferableAt;
    }
    return channelOrderStatus({
      id: scopedId(merchantId, charge.id),
      reference,
      status,
      amount: charge.amount,
      currency: charge.currency.toUpperCase(),
      ...(failureCode ? { failureCode } : {}),
      ...(settledAt ? { settledAt } : {}),
    });
  }

  /** The merchant whose account holds dispute `disputeId` (a dispute carries no metadata of ours). */
  private async disputeOwner(mode: Mode, disputeId: string): Promise<string> {
    for (const credentials of await this.options.credentials.list(OMISE_CHANNEL_NAME, mode)) {
      try {
        const dispute = await this.timed(() => this.client(credentials).disputes.retrieve(disputeId));
        if (dispute.id === disputeId) return credentials.merchantId;
      } catch (error) {
        if (omiseErrorCode(error) === 'not_found') continue;
        throw this.calls.failure(mode, 'retrieve_dispute', error);
      }
    }
    throw invalidCallback('The Omise dispute event names no dispute of a merchant of this mode.');
  }

  private async clientOf(merchantId: string, mode: Mode): Promise<OmiseClient> {
    const credentials = await this.options.credentials.find(OMISE_CHANNEL_NAME, merchantId, mode);
    if (!credentials) throw channelError(`The omise channel has no ${mode}-mode keys for this merchant.`);
    return this.client(credentials);
  }

  /** One SDK client per secret key, kept. */
  private client(credentials: ChannelCredentials): OmiseClient {
    const secretKey = credentials.secrets[OMISE_SETTINGS.secretKey];
    if (!secretKey) throw channelError('The omise channel has no secret key for this merchant.');
    let client = this.clients.get(secretKey);
    if (!client) {
      // The SDK's client has the Search resource its declarations leave out (`OmiseSearchApi`).
      client = this.options.client?.(secretKey) ?? withSearch(Omise({ secretKey, omiseVersion: OMISE_API_VERSION }));
      this.clients.set(secretKey, client);
    }
    return client;
  }

  private timed<T>(run: () => Promise<T>): Promise<T> {
    return withTimeout(this.options.timeoutMs ?? 10_000, run);
  }

  private parse(id: string, what: string): ScopedOmiseId {
    const parsed = parseScopedId(id);
    if (!parsed) throw channelError(`The ${what} id is not one the omise channel made.`);
    return parsed;
  }

  private parseRefund(id: string): ScopedOmiseRefundId {
    const parsed = parseScopedRefundId(id);
    if (!parsed) throw channelError('The refund id is not one the omise channel made.');
    return parsed;
  }
}

/** The SDK's client with its Search resource, checked: its declarations leave it out. */
function withSearch(client: Omise.IOmise): OmiseClient {
  if (!hasSearch(client)) throw channelError('The omise SDK has no search resource.');
  return client;
}

function hasSearch(client: Omise.IOmise): client is OmiseClient {
  return 'search' in client && typeof fieldOf(client.search, 'list') === 'function';
}

interface OmiseEventBody {
  readonly key: string;
  readonly livemode?: boolean;
  readonly data: unknown;
}

/** The delivery's body as an Omise event (`{ object: 'event', key, data }`), or `invalid_callback`. */
function parseEvent(rawBody: string): OmiseEventBody {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw invalidCallback('The Omise event is not JSON.');
  }
  const key = fieldOf(body, 'key');
  const livemode = fieldOf(body, 'livemode');
  if (fieldOf(body, 'object') !== 'event' || typeof key !== 'string') throw invalidCallback('The body is not an Omise event.');
  return { key, data: fieldOf(body, 'data'), ...(typeof livemode === 'boolean' ? { livemode } : {}) };
}

/** A delivery whose object the adapter could not fetch: refused, and Omise delivers it again. */
function notConfirmed(error: unknown): CoreError {
  if (error instanceof CoreError && error.code === 'channel_error' && /not one this service made|did not make|another/.test(error.message)) {
    return invalidCallback('The Omise event names an object this service did not make.');
  }
  return error instanceof CoreError ? error : channelError('Omise could not confirm the delivery.');
}

/** A field of an object of no known shape (an event's data is one of many Omise types). */
function fieldOf(value: unknown, name: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  const fields: Record<string, unknown> = { ...value };
  return Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
}

/** What is logged of a failed Omise call, and the error's message. */
function describeFailure(error: unknown, what: string): ProviderFailure {
  const errorType = isOmiseError(error)
    ? 'omise_error'
    : error instanceof UnmappedOmiseValue
      ? 'unmapped'
      : error instanceof OmiseTimeout
        ? 'timeout'
        : 'other';
  return {
    fields: { error_type: errorType, ...(isOmiseError(error) ? { code: error.code } : {}) },
    message: messageOf(error, what),
    ...(error instanceof UnmappedOmiseValue ? { cause: error } : {}),
  };
}

/** What reaches an error message: our words, the Omise error code and the unmapped value, never Omise's message (it may echo input). */
function messageOf(error: unknown, what: string): string {
  if (error instanceof UnmappedOmiseValue) return error.message;
  if (error instanceof CoreError) return error.message;
  if (error instanceof OmiseTimeout) return `Omise did not answer in time for ${what}.`;
  const code = omiseErrorCode(error);
  return code === undefined ? `Omise could not be reached for ${what}.` : `Omise refused ${what} (${code}).`;
}
