import type { ChannelCredentials, ChannelCredentialStore, Mode } from '@payments/core';
import { randomBytes } from 'node:crypto';
import nock from 'nock';
import {
  errorBody,
  promptPayCharge,
  trueMoneyCharge,
  type ChargeShape,
  type DisputeShape,
  type ErrorShape,
  type EventShape,
  type ListShape,
  type RefundShape,
  type SearchShape,
  type TransactionShape,
} from './omise-shapes';

export const OMISE_ORIGIN = 'https://api.omise.co';
const id = (prefix: string): string => `${prefix}_test_${randomBytes(9).toString('hex')}`;

/** Credentials in memory, as the sealed store would answer them. */
export class MemoryCredentialStore implements Pick<ChannelCredentialStore, 'find' | 'list'> {
  readonly rows: ChannelCredentials[] = [];

  set(merchantId: string, mode: Mode, secrets: Record<string, string>): void {
    this.rows.push({ channel: 'omise', merchantId, mode, secrets, updatedAt: new Date() });
  }

  async find(channel: string, merchantId: string, mode: Mode): Promise<ChannelCredentials | undefined> {
    return this.rows.find((row) => row.channel === channel && row.merchantId === merchantId && row.mode === mode);
  }

  async list(channel: string, mode: Mode): Promise<ChannelCredentials[]> {
    return this.rows.filter((row) => row.channel === channel && row.mode === mode);
  }
}

type Answer = [number, nock.ReplyBody];

/**
 * One Omise account served by nock in the recorded shapes (`omise-shapes.ts`): its charges,
 * refunds, disputes and transactions, the calls that touch them, and Omise's documented errors on
 * demand. Keyed by the secret key (HTTP Basic), so two merchants' accounts differ. Omise has no
 * idempotency keys: a second create makes a second charge, as it would there. Its search index
 * lags: a charge is found by search only once `indexSearch()` ran.
 */
export class FakeOmiseAccount {
  readonly charges = new Map<string, ChargeShape>();
  readonly refunds = new Map<string, RefundShape>();
  readonly disputes = new Map<string, DisputeShape>();
  /** Oldest first, as Omise lists them. */
  readonly transactions: TransactionShape[] = [];
  readonly calls: string[] = [];
  /** A status Omise's declarations do not have, answered instead of the charge's own (`charge id → status`). */
  readonly unknownStatuses = new Map<string, string>();
  private readonly indexed = new Set<string>();
  /** The error the next create answers, once. */
  nextCreateError: ErrorShape | undefined;
  nextRefundError: ErrorShape | undefined;
  /** The next create is made, then its answer is lost (the connection drops), once. */
  loseNextCreateAnswer = false;
  down = false;

  constructor(
    readonly secretKey: string,
    readonly now: () => Date = () => new Date(),
  ) {}

  /** Answers every call with this account's key from now on. */
  install(): void {
    const authorization = `Basic ${Buffer.from(`${this.secretKey}:`).toString('base64')}`;
    const scope = nock(OMISE_ORIGIN, { reqheaders: { authorization } }).persist();
    const search = (uri: string) => new URL(uri, OMISE_ORIGIN).searchParams;
    scope.get(/^\/search\?/).reply((uri) => this.answer('search', () => this.search(search(uri))));
    scope.get(/^\/charges(\?.*)?$/).reply((uri) => this.answer('list_charges', () => this.listCharges(search(uri))));
    // The callback form, so a lost answer can be a request error after the charge was made.
    scope.post('/charges').reply((_uri, body, callback) => {
      try {
        callback(
          null,
          this.answer('create_charge', () => this.create(body)),
        );
      } catch (error) {
        callback(error instanceof Error ? error : new Error(String(error)), [500, '']);
      }
    });
    scope.get(/^\/charges\/\w+$/).reply((uri) => this.answer('retrieve_charge', () => this.retrieve(segment(uri, 2))));
    scope.post(/^\/charges\/\w+\/expire$/).reply((uri) => this.answer('expire_charge', () => this.expire(segment(uri, 2))));
    scope.get(/^\/charges\/\w+\/refunds$/).reply((uri) => this.answer('list_refunds', () => this.refundsOf(segment(uri, 2))));
    scope.post(/^\/charges\/\w+\/refunds$/).reply((uri, body) => this.answer('create_refund', () => this.refund(segment(uri, 2), body)));
    scope.get(/^\/charges\/\w+\/refunds\/\w+$/).reply((uri) => this.answer('retrieve_refund', () => this.found(this.refunds.get(segment(uri, 4)))));
    scope.get(/^\/disputes\/\w+$/).reply((uri) => this.answer('retrieve_dispute', () => this.found(this.disputes.get(segment(uri, 2)))));
    scope.patch(/^\/disputes\/\w+$/).reply((uri, body) => this.answer('update_dispute', () => this.respond(segment(uri, 2), body)));
    scope.get(/^\/transactions(\?.*)?$/).reply((uri) => this.answer('list_transactions', () => this.listTransactions(search(uri))));
    scope
      .get(/^\/transactions\/\w+$/)
      .reply((uri) => this.answer('retrieve_transaction', () => this.found(this.transactions.find((t) => t.id === segment(uri, 2)))));
  }

  chargeOf(reference: string): ChargeShape {
    const charge = [...this.charges.values()].find((candidate) => candidate.metadata['reference'] === reference);
    if (!charge) throw new Error(`no charge of ${reference}`);
    return charge;
  }

  /** Omise's search index catches up with every charge and refund made so far. */
  indexSearch(): void {
    for (const key of [...this.charges.keys(), ...this.refunds.keys()]) this.indexed.add(key);
  }

  /** The payer paid: the charge succeeds and Omise credits its net (amount − `fee`), transferable at once when `transferable`. */
  pay(reference: string, options: { fee?: number; transferable?: boolean } = {}): ChargeShape {
    const charge = this.chargeOf(reference);
    if (charge.status === 'successful') return charge;
    const transferableAt = options.transferable ? this.now() : new Date(this.now().getTime() + 3 * 86_400_000);
    const txn = this.transaction('charge.capture', 'credit', charge.amount - (options.fee ?? 0), charge.id, transferableAt);
    const paid: ChargeShape = { ...charge, status: 'successful', transaction: txn.id, source: { ...charge.source, charge_status: 'successful' } };
    this.charges.set(charge.id, paid);
    return paid;
  }

  /** Omise marks the charge failed (or expired) with `failureCode`. */
  fail(reference: string, status: 'failed' | 'expired', failureCode: string | null): ChargeShape {
    const charge = this.chargeOf(reference);
    const failed: ChargeShape = { ...charge, status, failure_code: failureCode };
    this.charges.set(charge.id, failed);
    return failed;
  }

  /** The payer's bank opened a dispute over the whole payment: Omise takes the amount from the balance at once. */
  openDispute(reference: string): DisputeShape {
    const charge = this.chargeOf(reference);
    const dispute: DisputeShape = {
      object: 'dispute',
      id: id('dspt'),
      amount: charge.amount,
      currency: charge.currency,
      status: 'open',
      reason_code: 'goods_or_services_not_provided',
      message: '',
      created_at: this.now().toISOString(),
      charge: charge.id,
    };
    this.disputes.set(dispute.id, dispute);
    this.transaction('dispute.start', 'debit', dispute.amount, dispute.id, this.now());
    return dispute;
  }

  /** Omise ruled: `won` gives the amount back. */
  rule(disputeId: string, status: 'won' | 'lost'): DisputeShape {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw new Error(`no dispute ${disputeId}`);
    const ruled: DisputeShape = { ...dispute, status };
    this.disputes.set(disputeId, ruled);
    if (status === 'won') this.transaction('dispute.won', 'credit', dispute.amount, dispute.id, this.now());
    return ruled;
  }

  /** An event of `object`, as Omise posts it to the webhook endpoint (unsigned). */
  event(key: string, data: EventShape['data']): EventShape {
    const eventId = id('evnt');
    return { object: 'event', id: eventId, livemode: false, location: `/events/${eventId}`, key, created_at: this.now().toISOString(), data };
  }

  private transaction(key: string, direction: 'credit' | 'debit', amount: number, origin: string, transferableAt: Date): TransactionShape {
    const txn: TransactionShape = {
      object: 'transaction',
      id: id('trxn'),
      type: direction,
      amount,
      currency: 'THB',
      direction,
      key,
      origin,
      transferable_at: transferableAt.toISOString(),
      created_at: this.now().toISOString(),
    };
    this.transactions.push(txn);
    return txn;
  }

  private answer(call: string, run: () => Answer): Answer {
    this.calls.push(call);
    if (this.down) return [500, errorBody('internal_error')];
    return run();
  }

  private retrieve(chargeId: string): Answer {
    const charge = this.charges.get(chargeId);
    const unknown = this.unknownStatuses.get(chargeId);
    return charge && unknown !== undefined ? [200, { ...charge, status: unknown }] : this.found(charge);
  }

  private found(object: nock.ReplyBody | undefined): Answer {
    return object === undefined ? [404, errorBody('not_found')] : [200, object];
  }

  private search(params: URLSearchParams): Answer {
    const query = params.get('query') ?? '';
    const scope = params.get('scope');
    const pool: (ChargeShape | RefundShape)[] = scope === 'refund' ? [...this.refunds.values()] : scope === 'charge' ? [...this.charges.values()] : [];
    const data = pool.filter((object) => this.indexed.has(object.id) && (object.id === query || Object.values(object.metadata ?? {}).includes(query)));
    const answer: SearchShape<ChargeShape | RefundShape> = {
      object: 'search',
      scope: scope ?? '',
      query,
      page: 1,
      per_page: 30,
      total: data.length,
      total_pages: 1,
      data,
    };
    return [200, answer];
  }

  private listCharges(params: URLSearchParams): Answer {
    const from = params.get('from') ?? '1970-01-01T00:00:00Z';
    const all = [...this.charges.values()].filter((charge) => charge.created_at >= from);
    if (params.get('order') === 'reverse_chronological') all.reverse();
    return [200, this.page(all, params, from)];
  }

  private listTransactions(params: URLSearchParams): Answer {
    return [200, this.page(this.transactions, params, '1970-01-01T00:00:00Z')];
  }

  private page<T>(all: readonly T[], params: URLSearchParams, from: string): ListShape<T> {
    const offset = Number(params.get('offset') ?? 0);
    const limit = Number(params.get('limit') ?? 20);
    return {
      object: 'list',
      offset,
      limit,
      from,
      to: this.now().toISOString(),
      order: params.get('order') ?? 'chronological',
      total: all.length,
      location: '/list',
      data: all.slice(offset, offset + limit),
    };
  }

  private create(body: unknown): Answer {
    const failure = this.nextCreateError;
    if (failure) {
      this.nextCreateError = undefined;
      return [failure.code === 'authentication_failure' ? 401 : 400, failure];
    }
    const source = field(field(body, 'source'), 'type');
    if ((source !== 'promptpay' && source !== 'truemoney_jumpapp') || text(field(body, 'currency')).toLowerCase() !== 'thb')
      return [400, errorBody('invalid_charge')];
    const returnUri = text(field(body, 'return_uri'));
    // A redirect source without a return URI: Omise refuses the charge.
    if (source === 'truemoney_jumpapp' && !returnUri.startsWith('https://')) return [400, errorBody('invalid_charge')];
    const made = [id('chrg'), Number(field(body, 'amount')), texts(field(body, 'metadata')), this.now(), text(field(body, 'expires_at'))] as const;
    const charge = source === 'promptpay' ? promptPayCharge(...made) : trueMoneyCharge(...made, returnUri);
    this.charges.set(charge.id, charge);
    if (this.loseNextCreateAnswer) {
      this.loseNextCreateAnswer = false;
      throw new LostAnswer();
    }
    return [200, charge];
  }

  private expire(chargeId: string): Answer {
    const charge = this.charges.get(chargeId);
    if (!charge) return [404, errorBody('not_found')];
    if (charge.status !== 'pending') return [400, errorBody('failed_expire')];
    const expired: ChargeShape = { ...charge, status: 'expired' };
    this.charges.set(chargeId, expired);
    return [200, expired];
  }

  private refundsOf(chargeId: string): Answer {
    const data = [...this.refunds.values()].filter((refund) => refund.charge === chargeId);
    return [200, this.page(data, new URLSearchParams({ limit: '100' }), '1970-01-01T00:00:00Z')];
  }

  private refund(chargeId: string, body: unknown): Answer {
    const failure = this.nextRefundError;
    if (failure) {
      this.nextRefundError = undefined;
      return [400, failure];
    }
    const charge = this.charges.get(chargeId);
    if (!charge) return [404, errorBody('not_found')];
    const request = { amount: Number(field(body, 'amount')), metadata: texts(field(body, 'metadata')) };
    const refunded = [...this.refunds.values()].filter((refund) => refund.charge === chargeId).reduce((sum, refund) => sum + refund.amount, 0);
    if (charge.status !== 'successful' || refunded + request.amount > charge.amount) return [400, errorBody('failed_refund')];
    const refundId = id('rfnd');
    const txn = this.transaction('refund.create', 'debit', request.amount, refundId, this.now());
    const refund: RefundShape = {
      object: 'refund',
      id: refundId,
      location: `/charges/${chargeId}/refunds/${refundId}`,
      amount: request.amount,
      currency: charge.currency,
      charge: chargeId,
      transaction: txn.id,
      voided: false,
      metadata: request.metadata,
      created_at: this.now().toISOString(),
    };
    this.refunds.set(refundId, refund);
    return [200, refund];
  }

  private respond(disputeId: string, body: unknown): Answer {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) return [404, errorBody('not_found')];
    const updated: DisputeShape = { ...dispute, message: text(field(body, 'message')), status: 'pending' };
    this.disputes.set(disputeId, updated);
    return [200, updated];
  }
}

/** The connection dropped after Omise made the object: nock turns a thrown error into a request error. */
export class LostAnswer extends Error {
  constructor() {
    super('socket hang up');
    this.name = 'LostAnswer';
  }
}

/** A field of a request body of no known shape. */
function field(value: unknown, name: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  const fields: Record<string, unknown> = { ...value };
  return fields[name];
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A body's metadata: its text values. */
function texts(value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function segment(uri: string, index: number): string {
  return new URL(uri, OMISE_ORIGIN).pathname.split('/')[index] ?? '';
}
