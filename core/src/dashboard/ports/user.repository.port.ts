import { token } from '../../common';
import type { User } from '../domain/user.entity';

export interface UserRepository {
  /** Throws CoreError `email_taken` (conflict) when the email already has an account. */
  insert(user: User): Promise<void>;
  findByEmail(email: string): Promise<User | undefined>;
  /** The merchant's user, or undefined (another merchant's user included). */
  findById(merchantId: string, id: string): Promise<User | undefined>;
  /**
   * Like `findById`, and locks the row until the unit of work ends (`SELECT … FOR UPDATE` where
   * the database has row locks), so concurrent edits of one member run one after the other and
   * none writes back a row another already changed.
   */
  findByIdForUpdate(merchantId: string, id: string): Promise<User | undefined>;
  /** All users of the merchant, oldest first. */
  listByMerchant(merchantId: string): Promise<User[]>;
  /** Stores every field of `user` but its id, merchant and email. */
  update(user: User): Promise<void>;
  /**
   * Stores `sealedSecret` as the user's second factor (and forgets the last step used) only when
   * the user has none; false when one was there already, so of two concurrent claims one wins.
   */
  claimMfaSecret(merchantId: string, id: string, sealedSecret: string): Promise<boolean>;
  /**
   * Records `step` as the last one-time-code step used, only while the user's second factor is
   * still `sealedSecret` and no step at or after `step` was used; false otherwise. Conditional, so
   * two concurrent sign-ins with one code, or a sign-in racing a reset, cannot both succeed.
   */
  spendOneTimeStep(merchantId: string, id: string, sealedSecret: string, step: number): Promise<boolean>;
}
export const UserRepository = token<UserRepository>('UserRepository');
