import { CoreError, type User, type UserRepository, type UserRole, type UserStatus } from '@payments/core';
import { KnexTable } from '../knex-context';
import { toDate, toMillis, toNullable, toOptional, withoutUndefined, type BigIntValue } from '../mapping/column-values';
import { INDEXES } from '../migrations/001-initial-schema.migration';
import { isDuplicateKeyError } from '../sql-errors';

interface UserRow {
  id: string;
  merchant_id: string;
  email: string;
  name: string | null;
  role: UserRole;
  status: UserStatus;
  password_hash: string;
  mfa_secret?: string | null;
  mfa_last_step?: BigIntValue | null;
  created_at: BigIntValue;
}

const EMAIL_UNIQUE = { indexName: INDEXES.usersEmail, sqliteColumns: ['users.email'] } as const;

function toEntity(row: UserRow): User {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    email: row.email,
    name: toOptional(row.name),
    role: row.role,
    status: row.status,
    passwordHash: row.password_hash,
    mfaSecret: toOptional(row.mfa_secret ?? null),
    mfaLastStep: row.mfa_last_step === null || row.mfa_last_step === undefined ? undefined : Number(row.mfa_last_step),
    created: toDate(row.created_at),
  });
}

function toRow(user: User): UserRow {
  return {
    id: user.id,
    merchant_id: user.merchantId,
    email: user.email,
    name: toNullable(user.name),
    role: user.role,
    status: user.status,
    password_hash: user.passwordHash,
    mfa_secret: toNullable(user.mfaSecret),
    mfa_last_step: toNullable(user.mfaLastStep),
    created_at: toMillis(user.created),
  };
}

export class KnexUserRepository extends KnexTable<UserRow> implements UserRepository {
  protected readonly tableName = 'users';

  async insert(user: User): Promise<void> {
    try {
      await this.insertRow(toRow(user));
    } catch (error) {
      if (isDuplicateKeyError(error, EMAIL_UNIQUE)) {
        throw new CoreError('email_taken', 'conflict', 'An account with this email already exists.', { param: 'email', cause: error });
      }
      throw error;
    }
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const row = await this.first(this.table().where({ email }));
    return row === undefined ? undefined : toEntity(row);
  }

  async findById(merchantId: string, id: string): Promise<User | undefined> {
    const row = await this.first(this.table().where({ id, merchant_id: merchantId }));
    return row === undefined ? undefined : toEntity(row);
  }

  async findByIdForUpdate(merchantId: string, id: string): Promise<User | undefined> {
    const query = this.table().where({ id, merchant_id: merchantId });
    const row = await this.first(this.context.lockedRead(query));
    return row === undefined ? undefined : toEntity(row);
  }

  async listByMerchant(merchantId: string): Promise<User[]> {
    const rows = await this.rows(this.table().where({ merchant_id: merchantId }).orderBy('created_at', 'asc').orderBy('id', 'asc'));
    return rows.map(toEntity);
  }

  async update(user: User): Promise<void> {
    const { id, merchant_id, email, created_at, ...columns } = toRow(user);
    void email;
    void created_at;
    await this.changed(this.table().where({ id, merchant_id }).update(columns));
  }

  async claimMfaSecret(merchantId: string, id: string, sealedSecret: string): Promise<boolean> {
    const changed = await this.changed(
      this.table().where({ id, merchant_id: merchantId }).whereNull('mfa_secret').update({ mfa_secret: sealedSecret, mfa_last_step: null }),
    );
    return changed === 1;
  }

  async spendOneTimeStep(merchantId: string, id: string, sealedSecret: string, step: number): Promise<boolean> {
    const changed = await this.changed(
      this.table()
        .where({ id, merchant_id: merchantId, mfa_secret: sealedSecret })
        .andWhere((where) => void where.whereNull('mfa_last_step').orWhere('mfa_last_step', '<', step))
        .update({ mfa_last_step: step }),
    );
    return changed === 1;
  }
}
