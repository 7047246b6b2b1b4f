import { KnexTable } from '../knex-context';

interface TraceContextRow {
  subject_id: string;
  traceparent: string;
  recorded_at: number;
}

/**
 * Where a subject's next step finds the trace that caused it (table `trace_contexts`, migration
 * 027): an event, a webhook delivery, a payment intent or a channel's order, by id. Only the
 * tracing wiring of the composition root uses it, and only while tracing is on. A write joins the
 * unit of work running at the time, so a rolled-back change leaves no context behind.
 */
export interface TraceContextStore {
  /** Remembers `traceparent` for `subjectId`, replacing what an earlier step left. */
  record(subjectId: string, traceparent: string, at: Date): Promise<void>;
  /** The `traceparent` last recorded for `subjectId`, if any. */
  find(subjectId: string): Promise<string | undefined>;
  /** Forgets contexts recorded before `before`; returns how many. */
  purgeBefore(before: Date): Promise<number>;
}

export class KnexTraceContexts extends KnexTable<TraceContextRow> implements TraceContextStore {
  protected readonly tableName = 'trace_contexts';

  async record(subjectId: string, traceparent: string, at: Date): Promise<void> {
    const row: TraceContextRow = { subject_id: subjectId, traceparent, recorded_at: at.getTime() };
    await this.changed(this.table().insert(row).onConflict('subject_id').merge(['traceparent', 'recorded_at']));
  }

  async find(subjectId: string): Promise<string | undefined> {
    const row = await this.first<Pick<TraceContextRow, 'traceparent'>>(this.table().select('traceparent').where({ subject_id: subjectId }));
    return row?.traceparent;
  }

  purgeBefore(before: Date): Promise<number> {
    return this.changed(this.table().where('recorded_at', '<', before.getTime()).delete());
  }
}
