import type { User } from '../domain/user.entity';

export interface UserRepository {
  /** Throws CoreError `email_taken` (conflict) when the email already has an account. */
  insert(user: User): Promise<void>;
  findByEmail(email: string): Promise<User | undefined>;
  /** The merchant's user, or undefined (another merchant's user included). */
  findById(merchantId: string, id: string): Promise<User | undefined>;
  /** All users of the merchant, oldest first. */
  listByMerchant(merchantId: string): Promise<User[]>;
  /** Stores every field of `user` but its id, merchant and email. */
  update(user: User): Promise<void>;
}
export const UserRepository = Symbol('UserRepository');
