import type { Mode, RefundFailureCode } from '@payments/core';
import { INLINE } from '@payments/storage-sql';
import { date, millis, SimulatorTable, withoutUndefined } from './sql-values';

/** A refund the simulated channel took against one of its paid orders: what its refund query answers. */
export interface SimulatorRefund {
  readonly id: string;
  /** Our refund id; placing twice with one reference is one refund. */
  readonly reference: string;
  readonly orderId: string;
  readonly mode: Mode;
  readonly status: 'pending' | 'succeeded' | 'failed';
  readonly amount: number;
  readonly currency: string;
  readonly failureCode?: RefundFailureCode;
  readonly callbackUrl: string;
  /** When a pending refund is reported on its own (the tick after it was placed); absent once reported. */
  readonly dueAt?: Date;
  readonly created: Date;
  readonly updated: Date;
}

interface RefundRow {
  id: string;
  reference: string;
  order_id: string;
  mode: Mode;
  status: SimulatorRefund['status'];
  amount: number | string;
  currency: string;
  failure_code: RefundFailureCode | null;
  callback_url: string;
  due_at: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

function toRow(refund: SimulatorRefund): RefundRow {
  return {
    id: refund.id,
    reference: refund.reference,
    order_id: refund.orderId,
    mode: refund.mode,
    status: refund.status,
    amount: refund.amount,
    currency: refund.currency,
    failure_code: refund.failureCode ?? null,
    callback_url: refund.callbackUrl,
    due_at: millis(refund.dueAt),
    created_at: refund.created.getTime(),
    updated_at: refund.updated.getTime(),
  };
}

function toRefund(row: RefundRow): SimulatorRefund {
  const refund: SimulatorRefund = {
    id: row.id,
    reference: row.reference,
    orderId: row.order_id,
    mode: row.mode,
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    failureCode: row.failure_code ?? undefined,
    callbackUrl: row.callback_url,
    dueAt: date(row.due_at),
    created: new Date(Number(row.created_at)),
    updated: new Date(Number(row.updated_at)),
  };
  return withoutUndefined(refund);
}

/** The simulator's refunds (table `simulator_refunds`, migration 018), beside its order book. */
export class KnexSimulatorRefunds extends SimulatorTable<RefundRow> {
  protected readonly name = 'simulator_refunds';

  /** Insert-or-ignore on the unique reference, then read: concurrent places of one refund agree. */
  async insertOrGet(refund: SimulatorRefund): Promise<SimulatorRefund> {
    await this.changed(this.table().insert(toRow(refund)).onConflict('reference').ignore());
    const row = await this.first(this.table().where({ reference: refund.reference }));
    if (!row) throw new Error(`simulator refund for ${refund.reference} vanished`);
    return toRefund(row);
  }

  async find(id: string): Promise<SimulatorRefund | undefined> {
    const row = await this.first(this.table().where({ id }));
    return row === undefined ? undefined : toRefund(row);
  }

  async findByReference(reference: string): Promise<SimulatorRefund | undefined> {
    const row = await this.first(this.table().where({ reference }));
    return row === undefined ? undefined : toRefund(row);
  }

  /** What the order's refunds that did not fail add up to. */
  async refundedOf(orderId: string): Promise<number> {
    const rows = await this.rows<Pick<RefundRow, 'amount'>>(this.table().where({ order_id: orderId }).whereNot('status', 'failed').select('amount'));
    return rows.reduce((sum, row) => sum + Number(row.amount), 0);
  }

  async update(refund: SimulatorRefund): Promise<void> {
    const { id, ...columns } = toRow(refund);
    await this.changed(this.table().where({ id }).update(columns));
  }

  /** Pending refunds due to be reported, leased to this caller until `leaseUntil` (as orders are). */
  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<SimulatorRefund[]> {
    const rows = await this.claim(
      () => this.table().whereNotNull('due_at').where('due_at', '<=', now.getTime()).orderBy('due_at', 'asc').limit(limit, INLINE),
      (claimed) => claimed.update({ due_at: leaseUntil.getTime() }),
    );
    return rows.map(toRefund);
  }
}
