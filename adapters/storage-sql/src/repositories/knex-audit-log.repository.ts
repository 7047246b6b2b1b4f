import type { AuditEntry, AuditLog } from '@payments/core';
import type { KnexContext } from '../knex-context';
import { INLINE } from '../sql-statements';
import { fromJson, toDate, toMillis, toNullable, toOptional, withoutUndefined, type BigIntValue } from '../mapping/column-values';

interface AuditRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  user_id: string;
  action: string;
  object_type: string;
  object_id: string | null;
  details: string | null;
  created_at: BigIntValue;
}

export class KnexAuditLog implements AuditLog {
  constructor(private readonly context: KnexContext) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.context.write(
      this.context
        .db()<AuditRow>('audit_log')
        .insert({
          id: entry.id,
          merchant_id: entry.merchantId,
          user_id: entry.userId,
          action: entry.action,
          object_type: entry.objectType,
          object_id: toNullable(entry.objectId),
          details: entry.details === undefined ? null : JSON.stringify(entry.details),
          created_at: toMillis(entry.created),
        }),
    );
  }

  async listForMerchant(merchantId: string, limit: number): Promise<AuditEntry[]> {
    const rows = await this.context.rows<AuditRow>(
      this.context.db()<AuditRow>('audit_log').where({ merchant_id: merchantId }).orderBy('seq', 'desc').limit(limit, INLINE),
    );
    return rows.map((row) =>
      withoutUndefined({
        id: row.id,
        merchantId: row.merchant_id,
        userId: row.user_id,
        action: row.action,
        objectType: row.object_type,
        objectId: toOptional(row.object_id),
        details: row.details === null ? undefined : fromJson<AuditEntry['details']>(row.details),
        created: toDate(row.created_at),
      }),
    );
  }
}
