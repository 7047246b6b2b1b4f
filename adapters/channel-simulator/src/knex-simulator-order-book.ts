import type { AttemptFailureCode, Mode, SimulatedOutcome } from '@payments/core';
import type { Knex } from 'knex';
import type { SimulatorOrder, SimulatorOrderBook, SimulatorOrderStatus } from './simulator-order-book';

interface Row {
  id: string;
  reference: string;
  mode: string;
  amount: number | string;
  currency: string;
  payment_method: string;
  status: string;
  failure_code: string | null;
  callback_url: string;
  scheduled_outcome: string | null;
  due_at: number | string | null;
  paid_at: number | string | null;
  settled_at: number | string | null;
  created_at: number | string;
}

const millis = (date: Date | undefined): number | null => (date === undefined ? null : date.getTime());
const date = (value: number | string | null): Date | undefined => (value === null ? undefined : new Date(Number(value)));

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
    scheduled_outcome: order.scheduled === undefined ? null : JSON.stringify(order.scheduled),
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
    mode: row.mode as Mode,
    amount: Number(row.amount),
    currency: row.currency,
    paymentMethod: row.payment_method,
    status: row.status as SimulatorOrderStatus,
    failureCode: (row.failure_code ?? undefined) as AttemptFailureCode | undefined,
    callbackUrl: row.callback_url,
    scheduled: row.scheduled_outcome === null ? undefined : (JSON.parse(row.scheduled_outcome) as SimulatedOutcome),
    dueAt: date(row.due_at),
    paidAt: date(row.paid_at),
    settledAt: date(row.settled_at),
    created: new Date(Number(row.created_at)),
  };
  return Object.fromEntries(Object.entries(order).filter(([, value]) => value !== undefined)) as unknown as SimulatorOrder;
}

/** The order book in the service's database (table `simulator_orders`, migration 002). */
export class KnexSimulatorOrderBook implements SimulatorOrderBook {
  constructor(private readonly knex: Knex) {}

  private table(db: Knex = this.knex) {
    return db<Row>('simulator_orders');
  }

  async insertOrGet(order: SimulatorOrder): Promise<SimulatorOrder> {
    // Insert-or-ignore on the unique reference, then read: concurrent places of one reference agree.
    await this.table().insert(toRow(order)).onConflict('reference').ignore();
    const row = await this.table().where({ reference: order.reference }).first();
    if (!row) throw new Error(`simulator order for ${order.reference} vanished`);
    return toOrder(row);
  }

  async find(id: string): Promise<SimulatorOrder | undefined> {
    const row = await this.table().where({ id }).first();
    return row === undefined ? undefined : toOrder(row);
  }

  async update(order: SimulatorOrder): Promise<void> {
    const { id, ...columns } = toRow(order);
    await this.table().where({ id }).update(columns);
  }

  async claimDue(now: Date, limit: number): Promise<SimulatorOrder[]> {
    return this.knex.transaction(async (trx) => {
      const query = this.table(trx).whereNotNull('due_at').where('due_at', '<=', now.getTime()).orderBy('due_at', 'asc').limit(limit);
      // Several workers: each skips the rows another is claiming (SQLite writes one at a time anyway).
      const rows = await (trx.client.config.client === 'mysql2' ? query.forUpdate().skipLocked() : query);
      if (rows.length === 0) return [];
      await this.table(trx)
        .whereIn(
          'id',
          rows.map((row) => row.id),
        )
        .update({ due_at: null, scheduled_outcome: null });
      return rows.map(toOrder);
    });
  }

  async settlePaid(paidBefore: Date, now: Date): Promise<number> {
    return this.table().where({ status: 'paid' }).whereNull('settled_at').where('paid_at', '<=', paidBefore.getTime()).update({ settled_at: now.getTime() });
  }
}
