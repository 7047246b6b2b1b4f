import type { Notice, NoticeOutbox } from '@payments/core';
import { KnexTable } from '../knex-context';
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
    await this.table().insert({
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
    return (await this.table().whereNull('sent_at').orderBy('seq', 'asc').limit(limit)).map(toEntity);
  }

  async markSent(id: string, at: Date): Promise<boolean> {
    return (
      (await this.table()
        .where({ id })
        .whereNull('sent_at')
        .update({ sent_at: toMillis(at) })) > 0
    );
  }

  async listForMerchant(merchantId: string, limit: number): Promise<Notice[]> {
    return (await this.table().where({ merchant_id: merchantId }).orderBy('seq', 'desc').limit(limit)).map(toEntity);
  }
}
