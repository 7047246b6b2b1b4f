import { INLINE } from '@payments/storage-sql';
import type { SimulatorCallback } from './simulator-order-book';
import { date, instant, millis, SimulatorTable, withoutUndefined } from './sql-values';

interface CallbackRow {
  id: string;
  order_id: string;
  dispute_id: string | null;
  simulation_key: string | null;
  instruction: string | null;
  url: string;
  body: string;
  attempts: number | string;
  retry_at: number | string | null;
  delivered_at: number | string | null;
  created_at: number | string;
}

function toRow(callback: SimulatorCallback): CallbackRow {
  return {
    id: callback.id,
    order_id: callback.orderId,
    dispute_id: callback.disputeId ?? null,
    simulation_key: callback.simulationKey ?? null,
    instruction: callback.instruction ?? null,
    url: callback.url,
    body: callback.body,
    attempts: callback.attempts,
    retry_at: millis(callback.retryAt),
    delivered_at: millis(callback.deliveredAt),
    created_at: callback.created.getTime(),
  };
}

function toCallback(row: CallbackRow): SimulatorCallback {
  const callback: SimulatorCallback = {
    id: row.id,
    orderId: row.order_id,
    disputeId: row.dispute_id ?? undefined,
    simulationKey: row.simulation_key ?? undefined,
    instruction: row.instruction ?? undefined,
    url: row.url,
    body: row.body,
    attempts: Number(row.attempts),
    retryAt: date(row.retry_at),
    deliveredAt: date(row.delivered_at),
    created: instant(row.created_at),
  };
  return withoutUndefined(callback);
}

/** The simulator's callbacks (table `simulator_callbacks`, migration 010), beside its order book. */
export class KnexSimulatorCallbacks extends SimulatorTable<CallbackRow> {
  protected readonly name = 'simulator_callbacks';

  async insert(callback: SimulatorCallback): Promise<void> {
    await this.changed(this.table().insert(toRow(callback)));
  }

  /** An order's undelivered outcome callbacks stop being retried once a newer outcome is recorded. */
  async retireOrderCallbacks(orderId: string): Promise<void> {
    await this.changed(
      this.table().where({ order_id: orderId }).whereNull('dispute_id').whereNull('delivered_at').whereNotNull('retry_at').update({ retry_at: null }),
    );
  }

  async claimDue(now: Date, limit: number, maxAttempts: number, leaseUntil: Date): Promise<SimulatorCallback[]> {
    const due = () =>
      this.table().whereNotNull('retry_at').where('retry_at', '<=', now.getTime()).where('attempts', '<', maxAttempts).orderBy('retry_at', 'asc');
    // Every tick asks; nearly always nothing is due, and that answer needs no transaction.
    if ((await this.first(due().select('id'))) === undefined) return [];
    const rows = await this.claim(
      () => due().limit(limit, INLINE),
      (claimed) => claimed.update({ attempts: this.knex.raw('attempts + 1'), retry_at: leaseUntil.getTime() }),
    );
    return rows.map((row) => toCallback({ ...row, attempts: Number(row.attempts) + 1, retry_at: leaseUntil.getTime() }));
  }

  async reschedule(id: string, retryAt: Date | undefined): Promise<void> {
    await this.changed(
      this.table()
        .where({ id })
        .whereNull('delivered_at')
        .whereNotNull('retry_at')
        .update({ retry_at: millis(retryAt) }),
    );
  }

  async markDelivered(id: string, now: Date): Promise<void> {
    await this.changed(this.table().where({ id }).update({ delivered_at: now.getTime(), retry_at: null }));
  }

  async findSimulation(orderId: string, simulationKey: string): Promise<SimulatorCallback | undefined> {
    const row = await this.first(this.table().where({ order_id: orderId, simulation_key: simulationKey }).orderBy('seq', 'desc'));
    return row === undefined ? undefined : toCallback(row);
  }
}
