import type { AccountScope, Clock, LockManager, Mode, RandomSource } from '../../common';
import { CoreError, LockBusyError, MODES, newId } from '../../common';
import type { DisputeRepository } from '../../disputes';
import type { ItemJob } from '../../jobs';
import type { ChannelMovementKey, ChannelMovementTotal, Ledger } from '../../ledger';
import type { ChannelStatement, PaymentAttemptRepository, PaymentChannel, PaymentChannelRegistry, PaymentIntentRepository } from '../../payments';
import type { RefundRepository } from '../../refunds';
import { judge, matchKey, matchStatement, parseMatchKey, type KeyTotal, type MatchKey, type Mismatch, type ReconciliationItem } from '../domain/reconciliation';
import type { ReconciliationAlerts, ReconciliationStore } from '../ports/reconciliation-store.port';

/** The reconciliation's settings (PAYMENTS_RECON_*). */
export interface ReconciliationRules {
  /** How long a mismatch with nothing on its way may last before it is a break (PAYMENTS_RECON_GRACE_S). */
  readonly graceMs: number;
  /** Statement lines asked per page (default 500) and pages read per run at most (default 20; the rest on the next run). */
  readonly pageSize?: number;
  readonly maxPages?: number;
}

export interface ReconcileChannelDeps {
  readonly channels: PaymentChannelRegistry;
  readonly ledger: Ledger;
  readonly store: ReconciliationStore;
  readonly attempts: PaymentAttemptRepository;
  readonly intents: PaymentIntentRepository;
  readonly refunds: RefundRepository;
  readonly disputes: DisputeRepository;
  readonly locks: LockManager;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly alerts: ReconciliationAlerts;
  readonly rules: ReconciliationRules;
}

/** One channel in one mode: the unit the reconciliation runs on, and fails on, alone. */
export interface ChannelToReconcile {
  readonly channel: string;
  readonly mode: Mode;
}

/** What one run over a channel and mode did. */
export interface ReconciliationRun extends ChannelToReconcile {
  /** Statement lines read that were new. */
  readonly linesRead: number;
  /** Keys compared. */
  readonly checked: number;
  readonly opened: readonly ReconciliationItem[];
  readonly cleared: readonly ReconciliationItem[];
  /** Breaks of the channel and mode open after the run, and mismatches waiting. */
  readonly open: readonly ReconciliationItem[];
  readonly waiting: number;
}

/**
 * Keys with a posting or a line up to this long before the last run's start are compared again: a
 * posting stamped before that start may have committed after the run read the ledger.
 */
const OVERLAP_MS = 5 * 60_000;
/** How long one run may hold a channel and mode's lock, and wait for another run to let it go. */
const LOCK_TTL_MS = 10 * 60_000;
const LOCK_WAIT_MS = 30_000;
/** Keys asked of the ledger or the store in one query. */
const KEY_CHUNK = 200;

/**
 * The reconciliation with the channels' statements (docs/reconciliation.md). For one channel and
 * mode: reads the statement pages that are new since the last run and keeps them; compares, for
 * every key with a new line or a new ledger movement since the last run (and every key still
 * waiting or open), what the statement's lines and the ledger's movements add up to; and applies
 * the timing rule (`judge`): mismatches wait out a grace (longer while our own records say the
 * money is on its way), then open as breaks, which clear when their key matches later.
 *
 * As a background job (`reconcile-channels`) each channel and mode is an item of its own: one
 * whose channel does not answer is recorded as a failed item and never holds up the others.
 * `execute` runs it at once (the admin CLI, the simulation).
 */
export class ReconcileChannel implements ItemJob<ChannelToReconcile, ReconciliationRun> {
  constructor(private readonly deps: ReconcileChannelDeps) {}

  readonly name = 'reconcile-channels';
  readonly lanes = MODES;

  async due(mode: Mode): Promise<ChannelToReconcile[]> {
    return this.channelsOf(mode).map((channel) => ({ channel: channel.capabilities.name, mode }));
  }

  idOf(item: ChannelToReconcile): string {
    return `${item.channel}:${item.mode}`;
  }

  /**
   * One channel and mode. A statement that cannot be read fails this item alone (recorded as
   * `channel_error`, tried again after its backoff); another run holding the item (the admin CLI)
   * makes it a run that did nothing.
   */
  async handle(item: ChannelToReconcile): Promise<ReconciliationRun> {
    try {
      return await this.reconcile(item);
    } catch (error) {
      if (error instanceof LockBusyError) return { ...item, linesRead: 0, checked: 0, opened: [], cleared: [], open: [], waiting: 0 };
      throw error;
    }
  }

  progressed(run: ReconciliationRun): boolean {
    return run.linesRead > 0 || run.opened.length > 0 || run.cleared.length > 0;
  }

  /**
   * Reconciles every channel of `mode` that keeps a statement (or only `channel`) now, and answers
   * the breaks open after it. Throws what a channel's run throws (CoreError `channel_error` when
   * the channel does not answer) after the others ran; `resource_not_found` for a channel that
   * does not exist in `mode` or keeps no statement.
   */
  async execute(input: { readonly mode: Mode; readonly channel?: string }): Promise<ReconciliationItem[]> {
    const channels = this.channelsOf(input.mode).filter((channel) => input.channel === undefined || channel.capabilities.name === input.channel);
    if (input.channel !== undefined && channels.length === 0) {
      throw new CoreError('resource_not_found', 'not_found', `No channel '${input.channel}' with a statement in ${input.mode} mode.`, { param: 'channel' });
    }
    const open: ReconciliationItem[] = [];
    let failure: Error | undefined;
    for (const channel of channels) {
      try {
        open.push(...(await this.reconcile({ channel: channel.capabilities.name, mode: input.mode })).open);
      } catch (error) {
        failure ??=
          error instanceof StatementUnavailable
            ? new CoreError('channel_error', 'unavailable', error.message, { cause: error.cause })
            : error instanceof Error
              ? error
              : new Error(String(error));
      }
    }
    if (failure !== undefined) throw failure;
    return open;
  }

  private channelsOf(mode: Mode): PaymentChannel[] {
    return this.deps.channels.forMode(mode).filter((channel) => channel.statement !== undefined);
  }

  /** One run over a channel and mode, under its lock (the worker, the admin CLI and a test may ask at once). */
  private reconcile(item: ChannelToReconcile): Promise<ReconciliationRun> {
    return this.deps.locks.withLock(`reconcile:${item.channel}:${item.mode}`, LOCK_TTL_MS, () => this.run(item), { waitMs: LOCK_WAIT_MS });
  }

  private async run({ channel: name, mode }: ChannelToReconcile): Promise<ReconciliationRun> {
    const channel = this.deps.channels.find(name);
    if (!channel?.statement) return { channel: name, mode, linesRead: 0, checked: 0, opened: [], cleared: [], open: [], waiting: 0 };
    const { store, ledger } = this.deps;
    const now = this.deps.clock.now();
    const progress = await store.progress(name, mode);
    const linesRead = await this.readStatement(channel, mode, progress?.cursor, now);

    // The keys to compare: those with a line or a movement since the last run, and those not settled.
    const since = progress?.checkedUntil ? new Date(progress.checkedUntil.getTime() - OVERLAP_MS) : undefined;
    const items = await store.unsettled(name, mode);
    const movements = toKeyTotals(await ledger.channelMovements({ mode, channel: name, ...(since ? { activeSince: since } : {}) }));
    const lines = await store.lineTotals({ channel: name, mode, ...(since ? { fetchedSince: since } : {}) });
    const checked = new Set([...movements, ...lines, ...items].map(matchKey));
    if (since) {
      const moved = new Set(movements.map(matchKey));
      const listed = new Set(lines.map(matchKey));
      for (const keys of chunks(
        [...checked]
          .filter((key) => !moved.has(key))
          .map(movementKey)
          .filter(isDefined),
      )) {
        movements.push(...toKeyTotals(await ledger.channelMovements({ mode, channel: name, keys })));
      }
      for (const keys of chunks([...checked].filter((key) => !listed.has(key)))) {
        lines.push(...(await store.lineTotals({ channel: name, mode, keys: keys.map(parseMatchKey) })));
      }
    }

    const mismatches = matchStatement(lines, movements);
    const openKeys = new Set(items.filter((open) => open.status === 'open').map(matchKey));
    const inFlight = new Map<string, string>();
    for (const mismatch of mismatches) {
      if (openKeys.has(matchKey(mismatch))) continue;
      const why = await this.onItsWay(mismatch, name, mode);
      if (why !== undefined) inFlight.set(matchKey(mismatch), why);
    }
    const judgement = judge({
      channel: name,
      mode,
      checked,
      mismatches,
      items,
      inFlight,
      now,
      graceMs: this.deps.rules.graceMs,
      newId: () => newId(this.deps.random, 'reconciliation_item'),
    });
    await store.record(name, mode, judgement, now);
    for (const opened of judgement.opened) this.deps.alerts.breakOpened(opened);
    for (const cleared of judgement.cleared) this.deps.alerts.breakCleared(cleared);

    const after = new Map(items.map((known) => [known.id, known]));
    for (const id of judgement.remove) after.delete(id);
    for (const saved of judgement.save) {
      if (saved.status === 'cleared') after.delete(saved.id);
      else after.set(saved.id, saved);
    }
    const unsettled = [...after.values()];
    return {
      channel: name,
      mode,
      linesRead,
      checked: checked.size,
      opened: judgement.opened,
      cleared: judgement.cleared,
      open: unsettled.filter((known) => known.status === 'open'),
      waiting: unsettled.filter((known) => known.status === 'waiting').length,
    };
  }

  /** Reads and keeps the statement's new pages (at most `maxPages`; the rest on the next run). */
  private async readStatement(channel: PaymentChannel, mode: Mode, cursor: string | undefined, now: Date): Promise<number> {
    const pageSize = this.deps.rules.pageSize ?? 500;
    const maxPages = this.deps.rules.maxPages ?? 20;
    let after = cursor;
    let read = 0;
    for (let page = 0; page < maxPages; page += 1) {
      let statement: ChannelStatement;
      try {
        // Checked above: only channels with a statement are reconciled.
        statement = await channel.statement!(mode, { ...(after === undefined ? {} : { after }), limit: pageSize });
      } catch (error) {
        throw new StatementUnavailable(channel.capabilities.name, mode, error);
      }
      read += await this.deps.store.saveStatementPage(channel.capabilities.name, mode, statement, now);
      after = statement.next;
      if (!statement.hasMore) break;
    }
    return read;
  }

  /**
   * Why a mismatch is not expected to match yet by our own records, or undefined: a refund still
   * pending (the ledger books it when made, the channel lists it once paid); a payment whose rate
   * locks only at the channel's settlement, or a chargeback of such a payment (both booked then).
   */
  private async onItsWay(mismatch: Mismatch, channel: string, mode: Mode): Promise<string | undefined> {
    if (mismatch.kind === 'refund') {
      const refund = await this.deps.refunds.findForChannel(mode, mismatch.reference);
      return refund?.status === 'pending' ? 'refund_pending' : undefined;
    }
    if (mismatch.kind === 'payment') {
      const attempt = await this.deps.attempts.findByReference(mismatch.reference);
      if (attempt?.mode !== mode || attempt.status !== 'succeeded' || attempt.duplicateOf !== undefined) return undefined;
      return (await this.isUnpriced({ merchantId: attempt.merchantId, mode }, attempt.paymentIntentId)) ? 'payment_not_priced' : undefined;
    }
    if (mismatch.kind === 'chargeback') {
      const dispute = await this.deps.disputes.findByChannelDisputeId(channel, mode, mismatch.reference);
      if (dispute?.status !== 'lost') return undefined;
      return (await this.isUnpriced({ merchantId: dispute.merchantId, mode }, dispute.paymentIntentId)) ? 'payment_not_priced' : undefined;
    }
    return undefined;
  }

  /** Whether the payment is not priced yet (its rate locks at the channel's settlement): nothing of it is booked. */
  private async isUnpriced(scope: AccountScope, paymentIntentId: string): Promise<boolean> {
    const intent = await this.deps.intents.findById(scope, paymentIntentId);
    return intent !== undefined && (intent.net === undefined || intent.fee === undefined);
  }
}

/**
 * A channel's statement could not be read (the channel is down, or answered nonsense). Not a
 * CoreError of category `unavailable` on purpose: the job runner takes those for an outage of every
 * item (the database) and stops the pass, while this is one channel's item failing alone. Its
 * `code` is what the failure record keeps.
 */
export class StatementUnavailable extends Error {
  readonly code = 'channel_error';

  constructor(channel: string, mode: Mode, cause: unknown) {
    super(`The ${mode} statement of channel ${channel} could not be read.`, { cause });
    this.name = 'StatementUnavailable';
  }
}

function toKeyTotals(totals: readonly ChannelMovementTotal[]): KeyTotal[] {
  return totals.map((total) => ({
    kind: total.kind,
    reference: total.reference,
    currency: total.currency,
    amount: total.amount,
    merchantId: total.merchantId,
  }));
}

/** A text key as the ledger's key; undefined for a fee, which the ledger never records. */
function movementKey(text: string): ChannelMovementKey | undefined {
  const key: MatchKey = parseMatchKey(text);
  return key.kind === 'fee' ? undefined : { kind: key.kind, reference: key.reference };
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += KEY_CHUNK) out.push(values.slice(start, start + KEY_CHUNK));
  return out;
}
