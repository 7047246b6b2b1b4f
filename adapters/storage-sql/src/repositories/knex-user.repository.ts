import { CoreError, type User, type UserRepository, type UserRole, type UserStatus } from '@payments/core';
import type { KnexContext } from '../knex-context';
import { toDate, toMillis, toNullable, toOptional, withoutUndefined, type BigIntValue } from '../mapping/column-values';
import { INDEXES } from '../migrations/001-initial-schema.migration';
import { isDuplicateKeyError } from '../sql-errors';

interface UserRow {
  id: string;
  merchant_id: string;
  email: string;
  name: string | null;
  role: string;
  status: string;
  password_hash: string;
  created_at: BigIntValue;
}

const EMAIL_UNIQUE = { indexName: INDEXES.usersEmail, sqliteColumns: ['users.email'] } as const;

function toEntity(row: UserRow): User {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    email: row.email,
    name: toOptional(row.name),
    role: row.role as UserRole,
    status: row.status as UserStatus,
    passwordHash: row.password_hash,
    created: toDate(row.created_at),
  });
}

export class KnexUserRepository implements UserRepository {
  constructor(private readonly context: KnexContext) {}

  private table() {
    return this.context.db()<UserRow>('users');
  }

  async insert(user: User): Promise<void> {
    try {
      await this.table().insert({
        id: user.id,
        merchant_id: user.merchantId,
        email: user.email,
        name: toNullable(user.name),
        role: user.role,
        status: user.status,
        password_hash: user.passwordHash,
        created_at: toMillis(user.created),
      });
    } catch (error) {
      if (isDuplicateKeyError(error, EMAIL_UNIQUE)) {
        throw new CoreError('email_taken', 'conflict', 'An account with this email already exists.', { param: 'email', cause: error });
      }
      throw error;
    }
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const row = await this.table().where({ email }).first();
    return row === undefined ? undefined : toEntity(row);
  }
}
