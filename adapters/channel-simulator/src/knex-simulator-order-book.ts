import type { AttemptFailureCode, Mode, SimulatedOutcome, StatementLine, StatementLineKind } from '@payments/core';
import { KnexSimulatorCallbacks } from './knex-simulator-callbacks';
import { KnexSimulatorRefunds, type SimulatorRefund } from './knex-simulator-refunds';
import type {
  SimulatorCallback,
  SimulatorDispute,
  SimulatorDisputeStatus,
  SimulatorOrder,
  SimulatorOrderBook,
  SimulatorOrderStatus,
  StatementPosition,
} from './simulator-order-book';
import { INLINE } from '@payments/storage-sql';
import { date, fromJsonColumn, instant, millis, SimulatorTable, toJsonColumn, withoutUndefined } from './sql-values';

interface Row {
  id: string;
  reference: string;
  mode: Mode;
  amount: number | string;
  currency: string;
  payment_method: string;
  status: SimulatorOrderStatus;
  failure_code: AttemptFailureCode | null;
  callback_url: string;
  scheduled_outcome: string | null;
  due_at: number | string | null;
  paid_at: number | string | null;
  settled_at: number | string | null;
  created_at: number | string;
}

function toRow(order: SimulatorOrder): Row {
  return {
    id: order.id,
    reference: order.reference,
    mode: order.mode,
    amount: order.amount,
    currency: order.currency,
    payment_method: order.paymentMethod,
    status: order.status,
    failure_code: order.failureCode ?? null,
    callback_url: order.callbackUrl,
    scheduled_outcome: toJsonColumn(order.scheduled),
    due_at: millis(order.dueAt),
    paid_at: millis(order.paidAt),
    settled_at: millis(order.settledAt),
    created_at: order.created.getTime(),
  };
}

function toOrder(row: Row): SimulatorOrder {
  const order: SimulatorOrder = {
    id: row.id,
    reference: row.reference,
    mode: row.mode,
    amount: Number(row.amount),
    currency: row.currency,
    paymentMethod: row.payment_method,
    status: row.status,
    failureCode: row.failure_code ?? undefined,
    callbackUrl: row.callback_url,
    scheduled: fromJsonColumn<SimulatedOutcome>(row.scheduled_outcome),
    dueAt: date(row.due_at),
    paidAt: date(row.paid_at),
    settledAt: date(row.settled_at),
    created: instant(row.created_at),
  };
  return withoutUndefined(order);
}

/**
 * The order book in the service's database (table `simulator_orders`, migration 002), with its
 * disputes (008) and its callbacks (010).
 */
export class KnexSimulatorOrderBook extends SimulatorTable<Row> implements SimulatorOrderBook {
  protected readonly name = 'simulator_orders';
  private readonly disputes = new KnexSimulatorDisputes(this.knex, this.context);
  private readonly callbacks = new KnexSimulatorCallbacks(this.knex, this.context);
  private readonly refunds = new KnexSimulatorRefunds(this.knex, this.context);

  async insertOrGet(order: SimulatorOrder): Promise<SimulatorOrder> {
    // Insert-or-ignore on the unique reference, then read: concurrent places of one reference agree.
    await this.changed(this.table().insert(toRow(order)).onConflict('reference').ignore());
    const row = await this.first(this.table().where({ reference: order.reference }));
    if (!row) throw new Error(`simulator order for ${order.reference} vanished`);
    return toOrder(row);
  }

  async find(id: string): Promise<SimulatorOrder | undefined> {
    const row = await this.first(this.table().where({ id }));
    return row === undefined ? undefined : toOrder(row);
  }

  async update(order: SimulatorOrder, callback?: SimulatorCallback): Promise<void> {
    const { id, ...columns } = toRow(order);
    if (!callback) {
      await this.changed(this.table().where({ id }).update(columns));
      return;
    }
    await this.transaction(async (bound) => {
      await bound.changed(bound.table().where({ id }).update(columns));
      await bound.callbacks.retireOrderCallbacks(order.id);
      await bound.callbacks.insert(callback);
    });
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<SimulatorOrder[]> {
    const rows = await this.claim(
      () => this.table().whereNotNull('due_at').where('due_at', '<=', now.getTime()).orderBy('due_at', 'asc').limit(limit, INLINE),
      (claimed) => claimed.update({ due_at: leaseUntil.getTime() }),
    );
    return rows.map(toOrder);
  }

  async settlePaid(paidBefore: Date, now: Date): Promise<number> {
    return this.changed(
      this.table().where({ status: 'paid' }).whereNull('settled_at').where('paid_at', '<=', paidBefore.getTime()).update({ settled_at: now.getTime() }),
    );
  }

  insertDispute(dispute: SimulatorDispute, notice?: SimulatorCallback): Promise<void> {
    return this.transaction(async (bound) => {
      await bound.disputes.insert(dispute);
      if (notice) await bound.callbacks.insert(notice);
    });
  }

  findDispute(id: string): Promise<SimulatorDispute | undefined> {
    return this.disputes.find(id);
  }

  findLatestDispute(orderId: string): Promise<SimulatorDispute | undefined> {
    return this.disputes.findLatest(orderId);
  }

  updateDispute(dispute: SimulatorDispute, notice?: SimulatorCallback): Promise<void> {
    return this.transaction(async (bound) => {
      await bound.disputes.update(dispute);
      if (notice) await bound.callbacks.insert(notice);
    });
  }

  claimDueCallbacks(now: Date, limit: number, maxAttempts: number, leaseUntil: Date): Promise<SimulatorCallback[]> {
    return this.callbacks.claimDue(now, limit, maxAttempts, leaseUntil);
  }

  rescheduleCallback(id: string, retryAt: Date | undefined): Promise<void> {
    return this.callbacks.reschedule(id, retryAt);
  }

  markCallbackDelivered(id: string, now: Date): Promise<void> {
    return this.callbacks.markDelivered(id, now);
  }

  findSimulation(orderId: string, simulationKey: string): Promise<SimulatorCallback | undefined> {
    return this.callbacks.findSimulation(orderId, simulationKey);
  }

  insertRefundOrGet(refund: SimulatorRefund): Promise<SimulatorRefund> {
    return this.refunds.insertOrGet(refund);
  }

  findRefund(id: string): Promise<SimulatorRefund | undefined> {
    return this.refunds.find(id);
  }

  findRefundByReference(reference: string): Promise<SimulatorRefund | undefined> {
    return this.refunds.findByReference(reference);
  }

  refundedOf(orderId: string): Promise<number> {
    return this.refunds.refundedOf(orderId);
  }

  /** A refund's newer notice retires its older ones not yet delivered, as an order's outcomes do. */
  updateRefund(refund: SimulatorRefund, notice: SimulatorCallback): Promise<void> {
    return this.transaction(async (bound) => {
      await bound.refunds.update(refund);
      await bound.callbacks.retireOrderCallbacks(refund.id);
      await bound.callbacks.insert(notice);
    });
  }

  claimDueRefunds(now: Date, limit: number, leaseUntil: Date): Promise<SimulatorRefund[]> {
    return this.refunds.claimDue(now, limit, leaseUntil);
  }

  async statementLines(mode: Mode, after: StatementPosition | undefined, before: Date, limit: number): Promise<StatementLine[]> {
    const sources: Array<{ kind: StatementLineKind; table: string; status: string; at: string; reference: string }> = [
      { kind: 'chargeback', table: 'simulator_disputes', status: 'lost', at: 'updated_at', reference: 'id' },
      { kind: 'payment', table: 'simulator_orders', status: 'paid', at: 'paid_at', reference: 'reference' },
      { kind: 'refund', table: 'simulator_refunds', status: 'succeeded', at: 'updated_at', reference: 'reference' },
    ];
    const lines: StatementLine[] = [];
    for (const source of sources) {
      const query = this.context
        .db()(source.table)
        .where({ mode, status: source.status })
        .where(source.at, '<', before.getTime())
        .orderBy(source.at, 'asc')
        .orderBy('id', 'asc')
        .limit(limit, INLINE)
        .select('id', `${source.reference} as reference`, 'amount', 'currency', `${source.at} as at`);
      if (after) {
        // After the position: later in time, or at its time and later in (kind, id).
        if (source.kind < after.kind) void query.where(source.at, '>', after.at);
        else if (source.kind > after.kind) void query.where(source.at, '>=', after.at);
        else
          void query.where(
            (later) => void later.where(source.at, '>', after.at).orWhere((same) => void same.where(source.at, after.at).where('id', '>', after.id)),
          );
      }
      for (const row of await this.rows<{ id: string; reference: string; amount: number | string; currency: string; at: number | string }>(query)) {
        lines.push({
          kind: source.kind,
          reference: row.reference,
          channelId: row.id,
          amount: Number(row.amount),
          currency: row.currency,
          occurredAt: instant(row.at),
        });
      }
    }
    const order = (line: StatementLine): [number, string, string] => [line.occurredAt.getTime(), line.kind, line.channelId];
    return lines
      .sort((a, b) => {
        const [x, y] = [order(a), order(b)];
        return x[0] - y[0] || compareText(x[1], y[1]) || compareText(x[2], y[2]);
      })
      .slice(0, limit);
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface DisputeRow {
  id: string;
  order_id: string;
  reference: string;
  mode: Mode;
  status: SimulatorDisputeStatus;
  amount: number | string;
  currency: string;
  reason: string | null;
  evidence: string | null;
  created_at: number | string;
  updated_at: number | string;
}

function toDisputeRow(dispute: SimulatorDispute): DisputeRow {
  return {
    id: dispute.id,
    order_id: dispute.orderId,
    reference: dispute.reference,
    mode: dispute.mode,
    status: dispute.status,
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason ?? null,
    evidence: toJsonColumn(dispute.evidence),
    created_at: dispute.created.getTime(),
    updated_at: dispute.updated.getTime(),
  };
}

function toDispute(row: DisputeRow): SimulatorDispute {
  const dispute: SimulatorDispute = {
    id: row.id,
    orderId: row.order_id,
    reference: row.reference,
    mode: row.mode,
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    reason: row.reason ?? undefined,
    evidence: fromJsonColumn<Record<string, string>>(row.evidence),
    created: instant(row.created_at),
    updated: instant(row.updated_at),
  };
  return withoutUndefined(dispute);
}

/** The simulator's disputes (table `simulator_disputes`, migration 008), beside its order book. */
export class KnexSimulatorDisputes extends SimulatorTable<DisputeRow> {
  protected readonly name = 'simulator_disputes';

  async insert(dispute: SimulatorDispute): Promise<void> {
    await this.changed(this.table().insert(toDisputeRow(dispute)));
  }

  async find(id: string): Promise<SimulatorDispute | undefined> {
    const row = await this.first(this.table().where({ id }));
    return row === undefined ? undefined : toDispute(row);
  }

  async findLatest(orderId: string): Promise<SimulatorDispute | undefined> {
    const row = await this.first(this.table().where({ order_id: orderId }).orderBy('seq', 'desc'));
    return row === undefined ? undefined : toDispute(row);
  }

  async update(dispute: SimulatorDispute): Promise<void> {
    const { id, ...columns } = toDisputeRow(dispute);
    await this.changed(this.table().where({ id }).update(columns));
  }
}
