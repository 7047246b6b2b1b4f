import type { Notice, NoticeOutbox } from '@payments/core';
import { KnexTable } from '../knex-context';
import { INLINE } from '../sql-statements';
import { fromJson, toDate, toMillis, toNullableMillis, toOptionalDate, withoutUndefined, type BigIntValue } from '../mapping/column-values';

interface NoticeRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  kind: string;
  recipient: string;
  details: string;
  created_at: BigIntValue;
  sent_at: BigIntValue | null;
  /** The lease of the worker sending it (migration 020); no field of the entity. */
  locked_until?: BigIntValue | null;
}

function toEntity(row: NoticeRow): Notice {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    kind: row.kind,
    recipient: row.recipient,
    details: fromJson<Notice['details']>(row.details),
    created: toDate(row.created_at),
    sentAt: toOptionalDate(row.sent_at),
  });
}

export class KnexNoticeOutbox extends KnexTable<NoticeRow> implements NoticeOutbox {
  protected readonly tableName = 'notices';

  async append(notice: Notice): Promise<void> {
    await this.insertRow({
      id: notice.id,
      merchant_id: notice.merchantId,
      kind: notice.kind,
      recipient: notice.recipient,
      details: JSON.stringify(notice.details),
      created_at: toMillis(notice.created),
      sent_at: toNullableMillis(notice.sentAt),
    });
  }

  async pending(limit: number): Promise<Notice[]> {
    return (await this.rows(this.table().whereNull('sent_at').orderBy('seq', 'asc').limit(limit, INLINE))).map(toEntity);
  }

  async claim(id: string, now: Date, leaseUntil: Date): Promise<boolean> {
    const leased = await this.changed(
      this.table()
        .where({ id })
        .whereNull('sent_at')
        .where((free) => void free.whereNull('locked_until').orWhere('locked_until', '<=', toMillis(now)))
        .update({ locked_until: toMillis(leaseUntil) }),
    );
    return leased > 0;
  }

  async release(id: string, leaseUntil: Date): Promise<void> {
    await this.changed(
      this.table()
        .where({ id, locked_until: toMillis(leaseUntil) })
        .update({ locked_until: null }),
    );
  }

  async markSent(id: string, at: Date): Promise<boolean> {
    return (
      (await this.changed(
        this.table()
          .where({ id })
          .whereNull('sent_at')
          .update({ sent_at: toMillis(at) }),
      )) > 0
    );
  }

  async listForMerchant(merchantId: string, limit: number): Promise<Notice[]> {
    return (await this.rows(this.table().where({ merchant_id: merchantId }).orderBy('seq', 'desc').limit(limit, INLINE))).map(toEntity);
  }
}
