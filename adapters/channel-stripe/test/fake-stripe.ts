import type { ChannelCredentials, ChannelCredentialStore, Mode } from '@payments/core';
import { randomBytes } from 'node:crypto';
import nock from 'nock';
import Stripe from 'stripe';
import {
  errorBody,
  promptPayIntent,
  seconds,
  type BalanceTransactionShape,
  type ChargeShape,
  type DisputeShape,
  type EventShape,
  type ListShape,
  type PaymentIntentShape,
  type RefundShape,
} from './stripe-shapes';

export const STRIPE_ORIGIN = 'https://api.stripe.com';
const id = (prefix: string): string => `${prefix}_${randomBytes(10).toString('hex')}`;

/** Credentials in memory, as the sealed store would answer them. */
export class MemoryCredentialStore implements Pick<ChannelCredentialStore, 'find' | 'list'> {
  readonly rows: ChannelCredentials[] = [];

  set(merchantId: string, mode: Mode, secrets: Record<string, string>): void {
    this.rows.push({ channel: 'stripe', merchantId, mode, secrets, updatedAt: new Date() });
  }

  async find(channel: string, merchantId: string, mode: Mode): Promise<ChannelCredentials | undefined> {
    return this.rows.find((row) => row.channel === channel && row.merchantId === merchantId && row.mode === mode);
  }

  async list(channel: string, mode: Mode): Promise<ChannelCredentials[]> {
    return this.rows.filter((row) => row.channel === channel && row.mode === mode);
  }
}

/**
 * One Stripe account served by nock in the recorded shapes (`stripe-shapes.ts`): its
 * PaymentIntents, refunds, disputes and balance transactions, the calls that touch them, and
 * Stripe's documented errors on demand. Keyed by the secret key, so two merchants' accounts differ.
 */
export class FakeStripeAccount {
  readonly intents = new Map<string, PaymentIntentShape>();
  readonly refunds = new Map<string, RefundShape>();
  readonly disputes = new Map<string, DisputeShape>();
  /** Newest first, as Stripe lists them. */
  readonly balance: BalanceTransactionShape[] = [];
  readonly calls: string[] = [];
  /** The error the next create answers, once. */
  nextCreateError: { status: number; body: ReturnType<typeof errorBody> } | undefined;
  down = false;

  constructor(
    readonly secretKey: string,
    readonly now: () => Date = () => new Date(),
  ) {}

  /** Answers every call with this account's key from now on. */
  install(): void {
    const scope = nock(STRIPE_ORIGIN, { reqheaders: { authorization: `Bearer ${this.secretKey}` } }).persist();
    scope.post('/v1/payment_intents').reply((_uri, body) => this.answer('create_payment_intent', () => this.create(formOf(body))));
    scope.get(/^\/v1\/payment_intents\/\w+(\?.*)?$/).reply((uri) => this.answer('retrieve_payment_intent', () => this.found(this.intents.get(idIn(uri)))));
    scope.post(/^\/v1\/payment_intents\/\w+\/cancel$/).reply((uri) => this.answer('cancel_payment_intent', () => this.cancel(idIn(uri))));
    scope.post('/v1/refunds').reply((_uri, body) => this.answer('create_refund', () => this.refund(formOf(body))));
    scope.get(/^\/v1\/refunds\/\w+$/).reply((uri) => this.answer('retrieve_refund', () => this.found(this.refunds.get(idIn(uri)))));
    scope.get(/^\/v1\/disputes\/\w+(\?.*)?$/).reply((uri) => this.answer('retrieve_dispute', () => this.dispute(idIn(uri))));
    scope.post(/^\/v1\/disputes\/\w+$/).reply((uri, body) => this.answer('update_dispute', () => this.evidence(idIn(uri), formOf(body))));
    scope
      .get(/^\/v1\/balance_transactions(\?.*)?$/)
      .reply((uri) => this.answer('list_balance_transactions', () => this.list(new URL(uri, STRIPE_ORIGIN).searchParams)));
  }

  intentOf(reference: string): PaymentIntentShape {
    const intent = [...this.intents.values()].find((candidate) => candidate.metadata['reference'] === reference);
    if (!intent) throw new Error(`no PaymentIntent of ${reference}`);
    return intent;
  }

  /** The payer paid: the intent succeeds with its charge and balance transaction (fee `fee`). */
  pay(reference: string, options: { fee?: number; available?: boolean } = {}): PaymentIntentShape {
    const intent = this.intentOf(reference);
    const txn: BalanceTransactionShape = {
      id: id('txn'),
      object: 'balance_transaction',
      amount: intent.amount,
      available_on: seconds(this.now()),
      created: seconds(this.now()),
      currency: 'thb',
      exchange_rate: null,
      fee: options.fee ?? 0,
      net: intent.amount - (options.fee ?? 0),
      reporting_category: 'charge',
      status: options.available ? 'available' : 'pending',
      type: 'charge',
      source: null,
    };
    const charge: ChargeShape = {
      id: id('ch'),
      object: 'charge',
      amount: intent.amount,
      currency: 'thb',
      metadata: { ...intent.metadata },
      status: 'succeeded',
      payment_intent: intent.id,
      balance_transaction: txn,
    };
    txn.source = { ...charge, balance_transaction: txn.id };
    this.balance.unshift(txn);
    const paid: PaymentIntentShape = { ...intent, status: 'succeeded', amount_received: intent.amount, next_action: null, latest_charge: charge };
    this.intents.set(intent.id, paid);
    return paid;
  }

  /** The payer's bank opened a dispute over the whole payment. */
  openDispute(reference: string): DisputeShape {
    const intent = this.intentOf(reference);
    const dispute: DisputeShape = {
      id: id('dp'),
      object: 'dispute',
      amount: intent.amount,
      currency: 'thb',
      status: 'needs_response',
      reason: 'fraudulent',
      created: seconds(this.now()),
      livemode: false,
      payment_intent: intent.id,
    };
    this.disputes.set(dispute.id, dispute);
    return dispute;
  }

  /** Stripe ruled: `lost` takes the money back (a balance transaction of the dispute). */
  rule(disputeId: string, status: 'won' | 'lost'): void {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw new Error(`no dispute ${disputeId}`);
    const ruled: DisputeShape = { ...dispute, status };
    this.disputes.set(disputeId, ruled);
    if (status === 'lost')
      this.balance.unshift(this.movement('adjustment', 'dispute', -dispute.amount, { ...ruled, payment_intent: idOf(ruled.payment_intent) }));
  }

  /** An event of `object`, as Stripe posts it to the webhook endpoint. */
  event(type: EventShape['type'], object: EventShape['data']['object']): EventShape {
    return {
      id: id('evt'),
      object: 'event',
      livemode: false,
      created: seconds(this.now()),
      api_version: Stripe.API_VERSION,
      pending_webhooks: 1,
      type,
      data: { object },
    };
  }

  private movement(
    type: BalanceTransactionShape['type'],
    category: string,
    amount: number,
    source: BalanceTransactionShape['source'],
  ): BalanceTransactionShape {
    return {
      id: id('txn'),
      object: 'balance_transaction',
      amount,
      available_on: seconds(this.now()),
      created: seconds(this.now()),
      currency: 'thb',
      exchange_rate: null,
      fee: 0,
      net: amount,
      reporting_category: category,
      status: 'available',
      type,
      source,
    };
  }

  private answer(call: string, run: () => [number, unknown]): [number, unknown] {
    this.calls.push(call);
    if (this.down) return [500, errorBody('api_error', 'processing_error')];
    return run();
  }

  private found(object: unknown): [number, unknown] {
    return object === undefined ? [404, errorBody('invalid_request_error', 'resource_missing')] : [200, object];
  }

  private create(form: URLSearchParams): [number, unknown] {
    const failure = this.nextCreateError;
    if (failure) {
      this.nextCreateError = undefined;
      return [failure.status, failure.body];
    }
    const reference = form.get('metadata[reference]') ?? '';
    const existing = [...this.intents.values()].find((intent) => intent.metadata['reference'] === reference);
    if (existing) return [200, existing]; // the Idempotency-Key's replay
    if (form.get('allowed_payment_method_types[0]') !== 'promptpay' || form.get('payment_method_data[billing_details][email]') === '') {
      return [400, errorBody('invalid_request_error', 'parameter_missing')];
    }
    const intent = promptPayIntent(id('pi'), Number(form.get('amount')), { reference, merchant: form.get('metadata[merchant]') ?? '' }, this.now());
    this.intents.set(intent.id, intent);
    return [200, intent];
  }

  private cancel(intentId: string): [number, unknown] {
    const intent = this.intents.get(intentId);
    if (!intent) return this.found(undefined);
    if (intent.status === 'succeeded') return [400, errorBody('invalid_request_error', 'payment_intent_unexpected_state')];
    const canceled: PaymentIntentShape = { ...intent, status: 'canceled', cancellation_reason: 'requested_by_customer', next_action: null };
    this.intents.set(intentId, canceled);
    return [200, canceled];
  }

  private refund(form: URLSearchParams): [number, unknown] {
    const reference = form.get('metadata[reference]') ?? '';
    const existing = [...this.refunds.values()].find((refund) => refund.metadata?.['reference'] === reference);
    if (existing) return [200, existing];
    const intent = this.intents.get(form.get('payment_intent') ?? '');
    if (!intent) return this.found(undefined);
    const amount = Number(form.get('amount'));
    if (intent.status !== 'succeeded') return [400, errorBody('invalid_request_error', 'charge_not_refundable')];
    if (amount > intent.amount_received) return [400, errorBody('invalid_request_error', 'amount_too_large')];
    const refund: RefundShape = {
      id: id('re'),
      object: 'refund',
      amount,
      currency: 'thb',
      metadata: { reference, merchant: form.get('metadata[merchant]') ?? '' },
      status: 'succeeded',
      created: seconds(this.now()),
      payment_intent: intent.id,
    };
    this.refunds.set(refund.id, refund);
    this.balance.unshift(this.movement('refund', 'refund', -amount, refund));
    return [200, refund];
  }

  private dispute(disputeId: string): [number, unknown] {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) return this.found(undefined);
    return [200, { ...dispute, payment_intent: this.intents.get(idOf(dispute.payment_intent)) }];
  }

  private evidence(disputeId: string, form: URLSearchParams): [number, unknown] {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) return this.found(undefined);
    if (dispute.status === 'won' || dispute.status === 'lost') return [400, errorBody('invalid_request_error', 'status_transition_invalid')];
    if (![...form.keys()].some((key) => key.startsWith('evidence['))) return [400, errorBody('invalid_request_error', 'parameter_missing')];
    return [200, dispute];
  }

  /** `GET /v1/balance_transactions`: newest first; `ending_before` answers the ones right after the cursor. */
  private list(query: URLSearchParams): [number, unknown] {
    const limit = Number(query.get('limit') ?? 10);
    const before = query.get('ending_before');
    const after = query.get('starting_after');
    let data: BalanceTransactionShape[];
    let hasMore: boolean;
    if (before !== null) {
      const at = this.balance.findIndex((txn) => txn.id === before);
      const newer = this.balance.slice(0, at < 0 ? 0 : at);
      data = newer.slice(Math.max(0, newer.length - limit));
      hasMore = newer.length > limit;
    } else {
      const start = after === null ? 0 : this.balance.findIndex((txn) => txn.id === after) + 1;
      data = this.balance.slice(start, start + limit);
      hasMore = this.balance.length > start + limit;
    }
    const page: ListShape<BalanceTransactionShape> = { object: 'list', url: '/v1/balance_transactions', has_more: hasMore, data };
    return [200, page];
  }
}

/** The id in a path: `/v1/<kind>/<id>…`. */
function idIn(uri: string): string {
  return new URL(uri, STRIPE_ORIGIN).pathname.split('/')[3] ?? '';
}

/** The form-encoded body the SDK posts (nock hands it over as text). */
function formOf(body: unknown): URLSearchParams {
  return new URLSearchParams(typeof body === 'string' ? body : '');
}

const idOf = (value: string | { id: string }): string => (typeof value === 'string' ? value : value.id);
