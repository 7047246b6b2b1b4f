import type { CheckoutSession, CheckoutSessionRepository, Mode } from '@payments/core';
import { KnexTable } from '../knex-context';
import { toDate, toMillis, type BigIntValue } from '../mapping/column-values';

interface CheckoutSessionRow {
  token_digest: string;
  payment_intent_id: string;
  merchant_id: string;
  mode: Mode;
  expires_at: BigIntValue;
  created_at: BigIntValue;
}

export class KnexCheckoutSessionRepository extends KnexTable<CheckoutSessionRow> implements CheckoutSessionRepository {
  protected readonly tableName = 'checkout_sessions';

  async insert(session: CheckoutSession): Promise<void> {
    await this.insertRow({
      token_digest: session.tokenDigest,
      payment_intent_id: session.paymentIntentId,
      merchant_id: session.merchantId,
      mode: session.mode,
      expires_at: toMillis(session.expiresAt),
      created_at: toMillis(session.created),
    });
  }

  async findByTokenDigest(tokenDigest: string): Promise<CheckoutSession | undefined> {
    const row = await this.first(this.table().where({ token_digest: tokenDigest }));
    if (row === undefined) return undefined;
    return {
      tokenDigest: row.token_digest,
      paymentIntentId: row.payment_intent_id,
      merchantId: row.merchant_id,
      mode: row.mode,
      expiresAt: toDate(row.expires_at),
      created: toDate(row.created_at),
    };
  }
}
