import {
  channelDisputeStatus,
  channelOrderStatus,
  channelRefundStatus,
  CoreError,
  findPaymentMethod,
  newId,
  PAYMENT_METHODS,
  payableCurrencies,
  type ChannelCapabilities,
  type ChannelDisputeStatus,
  type ChannelNotice,
  type ChannelOrderStatus,
  type ChannelRefundStatus,
  type PlaceRefundRequest,
  type PlaceRefundResult,
  type SimulatedRefundOutcome,
  type Clock,
  type Mode,
  type NextAction,
  type PaymentChannel,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type RandomSource,
  type SimulatedDisputeOutcome,
  type SimulatedOutcome,
  type SimulationInstruction,
  type ItemJob,
  type JobLane,
  type ChannelStatement,
  type StatementLine,
  type StatementQuery,
} from '@payments/core';
import { sign, SIGNATURE_HEADER, verify } from './callback-signature';
import type { SimulatorCallback, SimulatorDispute, SimulatorOrder, SimulatorOrderBook, StatementPosition } from './simulator-order-book';
import type { SimulatorRefund } from './knex-simulator-refunds';

/**
 * Magic amounts: the last two digits of the amount in minor units choose what the simulator reports
 * on the tick after the order is placed.
 */
export const MAGIC_OUTCOMES: Readonly<Record<string, SimulatedOutcome>> = {
  '01': { status: 'paid' },
  '02': { status: 'failed', failureCode: 'insufficient_funds' },
  '03': { status: 'failed', failureCode: 'payer_cancelled' },
  '04': { status: 'failed', failureCode: 'risk_blocked' },
  '05': { status: 'processing' },
};

export function magicOutcome(amount: number): SimulatedOutcome | undefined {
  return MAGIC_OUTCOMES[String(amount % 100).padStart(2, '0')];
}

/**
 * What the simulator reports for a refund nobody told it about, on the tick after it was placed:
 * success, but for refund amounts ending in 06, which the channel declines.
 */
export function magicRefundOutcome(amount: number): SimulatedRefundOutcome {
  return amount % 100 === 6 ? { status: 'failed', failureCode: 'channel_declined' } : { status: 'succeeded' };
}

/**
 * How many times the simulator tries one callback (the first included) before it leaves the news
 * to the service's reconciler, which asks the channel once the attempt's timeout has passed.
 */
export const CALLBACK_ATTEMPTS = 5;

/** How many refused callbacks one tick tries again at once (each may take up to the timeout). */
const RETRY_CONCURRENCY = 20;

export interface SimulatorOptions {
  /** The HMAC key of the simulator's callbacks. */
  readonly callbackSecret: Buffer;
  /** How long a callback delivery may take before simulate gives up. */
  readonly callbackTimeoutMs?: number;
  /**
   * How long after a refused callback a tick tries it again (default 1000 ms), doubling after
   * each further refusal, for `CALLBACK_ATTEMPTS` tries in all.
   */
  readonly callbackRetryMs?: number;
  /**
   * How long after a payment the simulator reports the funds settled: one scheduler tick, so
   * settlement comes on the tick after the success and never races the answer of the simulate
   * call that paid.
   */
  readonly settleAfterMs?: number;
  /**
   * How old a line must be before the statement lists it (default 1000 ms): a write under way when
   * the statement was read has committed by then, so no line ever appears before a cursor handed
   * out already.
   */
  readonly statementLagMs?: number;
  /**
   * Where a redirect-wallet credential sends the payer (`<walletUrl>/<order id>`): the service's own
   * stand-in wallet page, so the redirect works on any machine. Default: an address that never
   * resolves (`https://simulator.invalid/pay`), for uses without the HTTP app.
   */
  readonly walletUrl?: string;
  /**
   * Headers of the trace a callback is sent in (W3C `traceparent`): the worker sends a magic
   * outcome's callback in the span of the order's job item, whose parent is the attempt that
   * placed the order, so the callback joins that trace as a channel echoing `traceparent` would.
   * None by default (tracing off).
   */
  readonly traceHeaders?: () => Readonly<Record<string, string>>;
}

/** Callback body: what the simulated channel claims. Only the confirming query decides. */
interface CallbackBody {
  id: string;
  reference: string;
  status: 'processing' | 'paid' | 'failed';
  amount: number;
  currency: string;
  failure_code?: string;
}

/** Dispute notice body: which dispute changed; only the dispute query decides what it says. */
const CALLBACK_STATUSES: readonly CallbackBody['status'][] = ['processing', 'paid', 'failed'];
const isCallbackStatus = (value: unknown): value is CallbackBody['status'] => CALLBACK_STATUSES.some((status) => status === value);

interface DisputeNoticeBody {
  type: 'dispute';
  id: string;
  order_id: string;
  reference: string;
  status: SimulatorDispute['status'];
  amount: number;
  currency: string;
}

/** The reason the simulator gives its disputes. */
export const SIMULATED_DISPUTE_REASON = 'simulated';

/** A simulate call's key and what it told the channel. */
interface Simulation {
  readonly key: string;
  readonly instruction: SimulationInstruction;
}

/** One spelling per instruction, whatever order its fields came in, so a retry compares equal. */
export function canonicalInstruction(instruction: SimulationInstruction): string {
  if (instruction.kind === 'dispute') return JSON.stringify(['dispute', instruction.outcome]);
  if (instruction.kind === 'refund') return JSON.stringify(['refund', instruction.outcome.status, instruction.outcome.failureCode ?? null]);
  const { status, failureCode, amount, currency } = instruction.outcome;
  return JSON.stringify(['payment', status, failureCode ?? null, amount ?? null, currency ?? null]);
}

/** The simulator's statement cursor before any line. */
const STATEMENT_START = '0::';

function statementCursor(line: StatementLine): string {
  return `${line.occurredAt.getTime()}:${line.kind}:${line.channelId}`;
}

function statementPosition(cursor: string): StatementPosition {
  const match = /^(\d{1,15}):([a-z]*):([A-Za-z0-9_-]*)$/.exec(cursor);
  if (!match) throw new CoreError('channel_error', 'unavailable', 'The simulator does not know this statement cursor.');
  return { at: Number(match[1]), kind: match[2], id: match[3] };
}

function invalidTransition(message: string): CoreError {
  return new CoreError('invalid_state_transition', 'conflict', message);
}

/**
 * The test-mode channel. It keeps an order book, can be told what to report (simulate, magic
 * amounts), and delivers its callbacks signed over HTTP to the service's callback route, so a
 * simulated payment takes the same path as a real one: signature, confirming query, state change.
 */
export class SimulatorPaymentChannel implements PaymentChannel {
  readonly capabilities: ChannelCapabilities = {
    name: 'simulator',
    modes: ['test'],
    methods: PAYMENT_METHODS.map((entry) => entry.method),
    currencies: payableCurrencies(),
    canSimulate: true,
    pendingTimeoutMs: 15 * 60 * 1000,
  };

  constructor(
    private readonly book: SimulatorOrderBook,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly options: SimulatorOptions,
  ) {}

  async placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const now = this.clock.now();
    const scheduled = magicOutcome(request.amount);
    const order = await this.book.insertOrGet({
      id: `sim_${newId(this.random, 'payment_attempt').slice(3)}`,
      reference: request.reference,
      mode: request.mode,
      amount: request.amount,
      currency: request.currency,
      paymentMethod: request.paymentMethod,
      status: 'pending',
      callbackUrl: request.callbackUrl,
      ...(scheduled ? { scheduled, dueAt: now } : {}),
      created: now,
    });
    return { outcome: 'placed', channelOrderId: order.id, nextAction: this.credential(order) };
  }

  async queryOrder(_mode: Mode, channelOrderId: string): Promise<ChannelOrderStatus> {
    const order = await this.book.find(channelOrderId);
    if (!order) throw new CoreError('channel_error', 'unavailable', 'The simulator has no such order.');
    return channelOrderStatus(order);
  }

  verifyCallback(_mode: Mode, headers: Readonly<Record<string, string | undefined>>, rawBody: string): ChannelNotice {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    if (!verify(this.options.callbackSecret, headers[SIGNATURE_HEADER], rawBody, nowSeconds)) {
      throw new CoreError('invalid_signature', 'authentication', 'The callback signature is missing, wrong or stale.');
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw new CoreError('invalid_callback', 'validation', 'The callback body is not JSON.');
    }
    const { type, id, reference, status }: { type?: unknown; id?: unknown; reference?: unknown; status?: unknown } =
      typeof body === 'object' && body !== null ? body : {};
    if (type === 'dispute') {
      if (typeof id !== 'string') throw new CoreError('invalid_callback', 'validation', 'The dispute notice lacks its id.');
      return { kind: 'dispute', channelDisputeId: id };
    }
    if (type === 'refund') {
      if (typeof id !== 'string' || typeof reference !== 'string')
        throw new CoreError('invalid_callback', 'validation', 'The refund notice lacks its id or reference.');
      return { kind: 'refund', channelRefundId: id, reference };
    }
    if (typeof id !== 'string' || typeof reference !== 'string' || !isCallbackStatus(status)) {
      throw new CoreError('invalid_callback', 'validation', 'The callback body lacks id, reference or a known status.');
    }
    return { kind: 'order', channelOrderId: id, reference, reportedStatus: status };
  }

  async voidOrder(_mode: Mode, channelOrderId: string): Promise<void> {
    const order = await this.book.find(channelOrderId);
    if (!order || order.status === 'paid' || order.status === 'failed') return;
    await this.book.update({ ...order, status: 'failed', failureCode: 'expired', scheduled: undefined, dueAt: undefined });
  }

  /**
   * Records the outcome (replacing a magic one not yet reported) with its callback and the
   * request's key, then delivers the callback. A refused delivery fails the call, and later ticks
   * still try it: the outcome is recorded either way.
   */
  async simulate(_mode: Mode, channelOrderId: string, outcome: SimulatedOutcome, simulationKey?: string): Promise<void> {
    const order = await this.book.find(channelOrderId);
    if (!order) throw new CoreError('resource_not_found', 'not_found', 'The simulator has no such order.');
    const simulation = simulationKey === undefined ? undefined : { key: simulationKey, instruction: { kind: 'payment', outcome } as const };
    await this.deliver(await this.record(order, outcome, simulation));
  }

  /**
   * Whether a simulate call under this key told this order exactly this; its callback is
   * delivered again first when the service never took it (the retry must answer what the first
   * try would have answered: the intent once the callback landed).
   */
  async confirmSimulation(_mode: Mode, channelOrderId: string, instruction: SimulationInstruction, simulationKey: string): Promise<boolean> {
    const callback = await this.book.findSimulation(channelOrderId, simulationKey);
    if (!callback || callback.instruction !== canonicalInstruction(instruction)) return false;
    if (!callback.deliveredAt) await this.deliver(callback);
    return true;
  }

  /** The simulator's record of a dispute: the confirming query of dispute notices. */
  async queryDispute(_mode: Mode, channelDisputeId: string): Promise<ChannelDisputeStatus> {
    const dispute = await this.book.findDispute(channelDisputeId);
    if (!dispute) throw new CoreError('channel_error', 'unavailable', 'The simulator has no such dispute.');
    return channelDisputeStatus(dispute);
  }

  /** Keeps the evidence; an opened dispute goes under review. A ruled one takes none. */
  async submitDisputeEvidence(_mode: Mode, channelDisputeId: string, evidence: Readonly<Record<string, string>>): Promise<void> {
    const dispute = await this.book.findDispute(channelDisputeId);
    if (!dispute) throw new CoreError('channel_error', 'unavailable', 'The simulator has no such dispute.');
    if (dispute.status === 'won' || dispute.status === 'lost')
      throw new CoreError('channel_error', 'unavailable', 'The simulator has ruled on this dispute already.');
    const status = dispute.status === 'opened' ? 'under_review' : dispute.status;
    await this.book.updateDispute({ ...dispute, status, evidence: { ...evidence }, updated: this.clock.now() });
  }

  /**
   * Opens a dispute over the whole ordered amount of a paid order, or rules on the one opened
   * before, then delivers the signed dispute notice to the order's callback URL.
   */
  async simulateDispute(_mode: Mode, channelOrderId: string, outcome: SimulatedDisputeOutcome, simulationKey?: string): Promise<void> {
    const order = await this.book.find(channelOrderId);
    if (!order) throw new CoreError('resource_not_found', 'not_found', 'The simulator has no such order.');
    const now = this.clock.now();
    const latest = await this.book.findLatestDispute(order.id);
    const open = latest !== undefined && latest.status !== 'won' && latest.status !== 'lost';
    let dispute: SimulatorDispute;
    if (outcome === 'opened') {
      if (order.status !== 'paid') throw invalidTransition('The simulator disputes paid orders only.');
      if (open) throw invalidTransition('The order already has an open dispute.');
      dispute = {
        id: `sdp_${newId(this.random, 'dispute').slice(3)}`,
        orderId: order.id,
        reference: order.reference,
        mode: order.mode,
        status: 'opened',
        amount: order.amount,
        currency: order.currency,
        reason: SIMULATED_DISPUTE_REASON,
        created: now,
        updated: now,
      };
    } else {
      if (!latest || !open) throw invalidTransition('The order has no open dispute to rule on.');
      dispute = { ...latest, status: outcome, updated: now };
    }
    const body: DisputeNoticeBody = {
      type: 'dispute',
      id: dispute.id,
      order_id: dispute.orderId,
      reference: dispute.reference,
      status: dispute.status,
      amount: dispute.amount,
      currency: dispute.currency,
    };
    const simulation = simulationKey === undefined ? undefined : { key: simulationKey, instruction: { kind: 'dispute', outcome } as const };
    const notice = this.newCallback(order, JSON.stringify(body), simulation, dispute.id);
    // The dispute and its notice commit together: a notice the service refused is tried again.
    if (outcome === 'opened') await this.book.insertDispute(dispute, notice);
    else await this.book.updateDispute(dispute, notice);
    await this.deliver(notice);
  }

  /**
   * Takes a refund of a paid order (one per reference), to be reported on the next tick: succeeded,
   * or failed with `channel_declined` for amounts ending in 06 (`magicRefundOutcome`). Declines a
   * refund of an order that is not paid, in another currency, or past what is left of the order.
   */
  async placeRefund(request: PlaceRefundRequest): Promise<PlaceRefundResult> {
    const known = await this.book.findRefundByReference(request.reference);
    if (known) return { outcome: 'placed', channelRefundId: known.id };
    const order = await this.book.find(request.channelOrderId);
    const decline = (message: string): PlaceRefundResult => ({ outcome: 'refused', failureCode: 'channel_declined', message });
    if (!order || order.mode !== request.mode || order.status !== 'paid') return decline('The simulator refunds paid orders only.');
    if (request.currency !== order.currency) return decline('The simulator refunds in the currency the order was paid in.');
    if ((await this.book.refundedOf(order.id)) + request.amount > order.amount) return decline('The refund is more than what is left of the order.');
    const now = this.clock.now();
    const refund = await this.book.insertRefundOrGet({
      id: `srf_${newId(this.random, 'refund').slice(3)}`,
      reference: request.reference,
      orderId: order.id,
      mode: order.mode,
      status: 'pending',
      amount: request.amount,
      currency: request.currency,
      callbackUrl: request.callbackUrl,
      dueAt: now,
      created: now,
      updated: now,
    });
    return { outcome: 'placed', channelRefundId: refund.id };
  }

  /** The simulator's record of a refund: the confirming query of refund notices. */
  async queryRefund(_mode: Mode, channelRefundId: string): Promise<ChannelRefundStatus> {
    const refund = await this.book.findRefund(channelRefundId);
    if (!refund) throw new CoreError('channel_error', 'unavailable', 'The simulator has no such refund.');
    return channelRefundStatus(refund);
  }

  /**
   * The simulator's statement: its paid orders (payments), succeeded refunds and lost disputes
   * (chargebacks) of `mode`, by time, then kind, then id; it charges no fees. Lists lines older
   * than `statementLagMs` only (`asOf`). The cursor is `<epoch ms>:<kind>:<id>` of the last line
   * read (`0::` before any).
   */
  async statement(mode: Mode, query: StatementQuery): Promise<ChannelStatement> {
    const asOf = new Date(this.clock.now().getTime() - (this.options.statementLagMs ?? 1000));
    const after = query.after === undefined ? undefined : statementPosition(query.after);
    const lines = await this.book.statementLines(mode, after, asOf, query.limit + 1);
    const page = lines.slice(0, query.limit);
    const last = page.at(-1);
    return { lines: page, next: last ? statementCursor(last) : (query.after ?? STATEMENT_START), hasMore: lines.length > query.limit, asOf };
  }

  /** Settles a pending refund as told, then delivers its signed notice. */
  async simulateRefund(_mode: Mode, channelRefundId: string, outcome: SimulatedRefundOutcome, simulationKey?: string): Promise<void> {
    const refund = await this.book.findRefund(channelRefundId);
    if (!refund) throw new CoreError('resource_not_found', 'not_found', 'The simulator has no such refund.');
    if (refund.status !== 'pending') throw invalidTransition(`The simulator settled this refund already (${refund.status}).`);
    const simulation = simulationKey === undefined ? undefined : { key: simulationKey, instruction: { kind: 'refund', outcome } as const };
    await this.deliver(await this.recordRefund(refund, outcome, simulation));
  }

  /** Records a refund's outcome together with the notice that reports it. */
  private async recordRefund(refund: SimulatorRefund, outcome: SimulatedRefundOutcome, simulation?: Simulation): Promise<SimulatorCallback> {
    const settled: SimulatorRefund = {
      ...refund,
      status: outcome.status,
      failureCode: outcome.status === 'failed' ? (outcome.failureCode ?? 'channel_declined') : undefined,
      dueAt: undefined,
      updated: this.clock.now(),
    };
    const body = {
      type: 'refund',
      id: settled.id,
      reference: settled.reference,
      order_id: settled.orderId,
      status: settled.status,
      amount: settled.amount,
      currency: settled.currency,
      ...(settled.failureCode ? { failure_code: settled.failureCode } : {}),
    };
    const notice = this.newCallback({ id: settled.id, callbackUrl: settled.callbackUrl }, JSON.stringify(body), simulation);
    await this.book.updateRefund(settled, notice);
    return notice;
  }

  /** Reports one refund nobody told the simulator about (its notice is kept until the service takes it). */
  private async reportRefund(refund: SimulatorRefund): Promise<void> {
    if (refund.status !== 'pending') return;
    const notice = await this.recordRefund(refund, magicRefundOutcome(refund.amount));
    await this.deliver(notice).catch(() => undefined); // refused: a later tick tries again
  }

  /**
   * One tick of the simulated channel's clock, for tests that drive it by hand: settles the orders
   * paid at least `settleAfterMs` ago, then reports the magic outcomes that are due; in that
   * order, so an order paid by this tick settles on a later one (the simulator settles on the tick
   * after a success). Last, tries again the callbacks the service refused before (a magic outcome
   * may arrive before the attempt that placed its order has committed). Returns the work done.
   * The worker runs the same steps as background jobs instead (`jobs()`), each item on its own.
   */
  async tick(limit = 100): Promise<number> {
    const settled = await this.settlePaid();
    const due = await this.claimDueOutcomes(limit);
    for (const order of due) await this.reportOutcome(order);
    const refunds = await this.claimDueRefunds(limit);
    for (const refund of refunds) await this.reportRefund(refund);
    const retried = await this.claimRefusedCallbacks(limit);
    for (let start = 0; start < retried.length; start += RETRY_CONCURRENCY) {
      await Promise.all(retried.slice(start, start + RETRY_CONCURRENCY).map((callback) => this.retryCallback(callback)));
    }
    return settled + due.length + refunds.length + retried.length;
  }

  /**
   * The simulated channel's clock as the worker's background jobs, in tick order: settling paid
   * orders (one statement), then reporting due magic outcomes and retrying refused callbacks one
   * item at a time, so one order that cannot be reported never holds up the others.
   */
  jobs(): {
    settlePaid: () => Promise<number>;
    outcomes: ItemJob<SimulatorOrder>;
    refunds: ItemJob<SimulatorRefund>;
    callbacks: ItemJob<SimulatorCallback>;
  } {
    const lanes: readonly JobLane[] = ['test'];
    return {
      settlePaid: () => this.settlePaid(),
      outcomes: {
        name: 'simulator-outcomes',
        lanes,
        due: (_lane, limit, deferred) => this.claimDueOutcomes(limit + deferred.size),
        idOf: (order) => order.id,
        handle: async (order) => {
          await this.reportOutcome(order);
          return true;
        },
      },
      refunds: {
        name: 'simulator-refunds',
        lanes,
        due: (_lane, limit, deferred) => this.claimDueRefunds(limit + deferred.size),
        idOf: (refund) => refund.id,
        handle: async (refund) => {
          await this.reportRefund(refund);
          return true;
        },
      },
      callbacks: {
        name: 'simulator-callbacks',
        lanes,
        concurrency: RETRY_CONCURRENCY,
        due: (_lane, limit, deferred) => this.claimRefusedCallbacks(limit + deferred.size),
        idOf: (callback) => callback.id,
        handle: async (callback) => {
          await this.retryCallback(callback);
          return true;
        },
      },
    };
  }

  private settlePaid(): Promise<number> {
    const now = this.clock.now();
    return this.book.settlePaid(new Date(now.getTime() - (this.options.settleAfterMs ?? 0)), now);
  }

  private claimDueOutcomes(limit: number): Promise<SimulatorOrder[]> {
    return this.book.claimDue(this.clock.now(), limit, this.leaseUntil());
  }

  private claimDueRefunds(limit: number): Promise<SimulatorRefund[]> {
    return this.book.claimDueRefunds(this.clock.now(), limit, this.leaseUntil());
  }

  private claimRefusedCallbacks(limit: number): Promise<SimulatorCallback[]> {
    return this.book.claimDueCallbacks(this.clock.now(), limit, CALLBACK_ATTEMPTS, this.leaseUntil());
  }

  /** Reports one order's due magic outcome (its callback is kept until the service takes it). */
  private async reportOutcome(order: SimulatorOrder): Promise<void> {
    if (!order.scheduled || order.status !== 'pending') {
      // Decided meanwhile (a simulate replaced the magic outcome): drop the stale schedule.
      await this.book.update({ ...order, scheduled: undefined, dueAt: undefined });
      return;
    }
    const callback = await this.record(order, order.scheduled);
    await this.deliver(callback).catch(() => undefined); // refused: a later tick tries again
  }

  /** Refused again: `deliver` has set the next try, or given up after the last. */
  private retryCallback(callback: SimulatorCallback): Promise<void> {
    return this.deliver(callback).catch(() => undefined);
  }

  /**
   * How long a try under way keeps its callback (or a claimed order its schedule) from other
   * workers: past the request timeout, so a callback is sent twice only when a process died
   * while sending it.
   */
  private leaseUntil(): Date {
    return new Date(this.clock.now().getTime() + this.callbackTimeoutMs() + 1000);
  }

  private callbackTimeoutMs(): number {
    return this.options.callbackTimeoutMs ?? 10_000;
  }

  /** When the try after `attempts` refused tries may run; undefined once they are all spent. */
  private nextRetry(attempts: number): Date | undefined {
    if (attempts >= CALLBACK_ATTEMPTS) return undefined;
    return new Date(this.clock.now().getTime() + (this.options.callbackRetryMs ?? 1000) * 2 ** (attempts - 1));
  }

  /** Records the outcome on the order together with the callback that reports it. */
  private async record(order: SimulatorOrder, outcome: SimulatedOutcome, simulation?: Simulation): Promise<SimulatorCallback> {
    const now = this.clock.now();
    const updated: SimulatorOrder = {
      ...order,
      status: outcome.status,
      failureCode: outcome.status === 'failed' ? (outcome.failureCode ?? 'payer_cancelled') : undefined,
      paidAt: outcome.status === 'paid' ? (order.paidAt ?? now) : order.paidAt,
      scheduled: undefined,
      dueAt: undefined,
    };
    const body: CallbackBody = {
      id: updated.id,
      reference: updated.reference,
      status: outcome.status,
      amount: outcome.amount ?? updated.amount,
      currency: outcome.currency ?? updated.currency,
      ...(updated.failureCode ? { failure_code: updated.failureCode } : {}),
    };
    const callback = this.newCallback(updated, JSON.stringify(body), simulation);
    await this.book.update(updated, callback);
    return callback;
  }

  /** A callback to send now, counted as its first try, leased to the caller who sends it. */
  private newCallback(
    subject: Pick<SimulatorOrder, 'id' | 'callbackUrl'>,
    body: string,
    simulation: Simulation | undefined,
    disputeId?: string,
  ): SimulatorCallback {
    return {
      id: `scb_${newId(this.random, 'payment_attempt').slice(3)}`,
      orderId: subject.id,
      ...(disputeId === undefined ? {} : { disputeId }),
      ...(simulation === undefined ? {} : { simulationKey: simulation.key, instruction: canonicalInstruction(simulation.instruction) }),
      url: subject.callbackUrl,
      body,
      attempts: 1,
      retryAt: this.leaseUntil(),
      created: this.clock.now(),
    };
  }

  /**
   * Sends the callback and marks it delivered once our route answered 2xx; when it did not, sets
   * the next try (or gives up after the last) and throws.
   */
  private async deliver(callback: SimulatorCallback): Promise<void> {
    try {
      await this.post(callback.url, callback.body);
    } catch (error) {
      // Should this write fail too, the lease runs out and a tick tries again all the same.
      await this.book.rescheduleCallback(callback.id, this.nextRetry(callback.attempts)).catch(() => undefined);
      throw error;
    }
    // Should the mark fail, a tick sends it once more: a repeated callback changes nothing.
    await this.book.markCallbackDelivered(callback.id, this.clock.now()).catch(() => undefined);
  }

  /** Sends one signed callback and waits for our route's answer. */
  private async post(callbackUrl: string, raw: string): Promise<void> {
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    let response: Response;
    try {
      response = await fetch(callbackUrl, {
        method: 'POST',
        headers: {
          ...this.options.traceHeaders?.(),
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: sign(this.options.callbackSecret, timestamp, raw),
        },
        body: raw,
        signal: AbortSignal.timeout(this.callbackTimeoutMs()),
      });
    } catch (error) {
      throw new CoreError('api_error', 'unavailable', 'The simulated callback could not be delivered; retry the simulation.', {
        cause: error,
        retryAfterSeconds: 1,
      });
    }
    await response.arrayBuffer();
    if (!response.ok) {
      throw new CoreError('api_error', 'unavailable', `The callback route answered ${response.status} to the simulated callback.`, { retryAfterSeconds: 1 });
    }
  }

  /** The payer's credential: a QR payload or a redirect, by the method's catalog entry. */
  private credential(order: SimulatorOrder): NextAction {
    const method = findPaymentMethod(order.paymentMethod);
    if (method?.nextAction === 'redirect')
      return { type: 'redirect', url: `${(this.options.walletUrl ?? 'https://simulator.invalid/pay').replace(/\/$/, '')}/${order.id}` };
    return { type: 'qr_code', qrData: `SIMULATOR|${order.paymentMethod}|${order.id}|${order.amount}|${order.currency}` };
  }
}
