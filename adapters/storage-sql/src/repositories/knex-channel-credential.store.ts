import type { ChannelCredentials, ChannelCredentialStore, Mode, SecretBox } from '@payments/core';
import type { Knex } from 'knex';
import { toDate, toMillis, type BigIntValue } from '../mapping/column-values';

interface ChannelCredentialRow {
  channel: string;
  merchant_id: string;
  mode: Mode;
  secrets_sealed: string;
  updated_at: BigIntValue;
}

const TABLE = 'channel_credentials';

/**
 * Channel credentials in `channel_credentials`, sealed with the secret box (migration 028). It works
 * outside any unit of work: the operator's change is one row, and adapters read it on each call.
 */
export class KnexChannelCredentialStore implements ChannelCredentialStore {
  constructor(
    private readonly knex: Knex,
    private readonly box: SecretBox,
  ) {}

  async find(channel: string, merchantId: string, mode: Mode): Promise<ChannelCredentials | undefined> {
    const row: ChannelCredentialRow | undefined = await this.knex<ChannelCredentialRow>(TABLE).where({ channel, merchant_id: merchantId, mode }).first();
    return row === undefined ? undefined : this.toCredentials(row);
  }

  async list(channel: string, mode: Mode): Promise<ChannelCredentials[]> {
    const rows = await this.knex<ChannelCredentialRow>(TABLE).where({ channel, mode }).orderBy('merchant_id');
    return rows.map((row) => this.toCredentials(row));
  }

  async put(credentials: ChannelCredentials): Promise<void> {
    const row = {
      channel: credentials.channel,
      merchant_id: credentials.merchantId,
      mode: credentials.mode,
      secrets_sealed: this.box.seal(JSON.stringify(credentials.secrets)),
      updated_at: toMillis(credentials.updatedAt),
    };
    await this.knex(TABLE).insert(row).onConflict(['channel', 'mode', 'merchant_id']).merge(['secrets_sealed', 'updated_at']);
  }

  async remove(channel: string, merchantId: string, mode: Mode): Promise<boolean> {
    return (await this.knex(TABLE).where({ channel, merchant_id: merchantId, mode }).delete()) > 0;
  }

  private toCredentials(row: ChannelCredentialRow): ChannelCredentials {
    const parsed: unknown = JSON.parse(this.box.open(row.secrets_sealed));
    const secrets: Record<string, string> = {};
    if (parsed !== null && typeof parsed === 'object') {
      for (const [name, value] of Object.entries(parsed)) if (typeof value === 'string') secrets[name] = value;
    }
    return { channel: row.channel, merchantId: row.merchant_id, mode: row.mode, secrets, updatedAt: toDate(row.updated_at) };
  }
}
