import type { DashboardSession, DashboardSessionRepository } from '@payments/core';
import { KnexTable } from '../knex-context';
import { toDate, toMillis, toOptionalDate, withoutUndefined, type BigIntValue } from '../mapping/column-values';

interface DashboardSessionRow {
  id: string;
  token_digest: string;
  user_id: string;
  merchant_id: string;
  created_at: BigIntValue;
  expires_at: BigIntValue;
  ended_at: BigIntValue | null;
}

export class KnexDashboardSessionRepository extends KnexTable<DashboardSessionRow> implements DashboardSessionRepository {
  protected readonly tableName = 'dashboard_sessions';

  async insert(session: DashboardSession): Promise<void> {
    await this.insertRow({
      id: session.id,
      token_digest: session.tokenDigest,
      user_id: session.userId,
      merchant_id: session.merchantId,
      created_at: toMillis(session.created),
      expires_at: toMillis(session.expiresAt),
      ended_at: session.ended === undefined ? null : toMillis(session.ended),
    });
  }

  async findByTokenDigest(tokenDigest: string): Promise<DashboardSession | undefined> {
    const row = await this.first(this.table().where({ token_digest: tokenDigest }));
    if (row === undefined) return undefined;
    return withoutUndefined({
      id: row.id,
      tokenDigest: row.token_digest,
      userId: row.user_id,
      merchantId: row.merchant_id,
      created: toDate(row.created_at),
      expiresAt: toDate(row.expires_at),
      ended: toOptionalDate(row.ended_at),
    });
  }

  async end(merchantId: string, id: string, at: Date): Promise<void> {
    await this.changed(
      this.table()
        .where({ id, merchant_id: merchantId })
        .whereNull('ended_at')
        .update({ ended_at: toMillis(at) }),
    );
  }

  async endAllForUser(merchantId: string, userId: string, at: Date): Promise<number> {
    return this.changed(
      this.table()
        .where({ merchant_id: merchantId, user_id: userId })
        .whereNull('ended_at')
        .update({ ended_at: toMillis(at) }),
    );
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    return this.changed(this.table().where('expires_at', '<', toMillis(cutoff)).delete());
  }
}
