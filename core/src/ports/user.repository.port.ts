import type { User } from '../domain/user.entity';

export interface UserRepository {
  /** Throws CoreError `email_taken` (conflict) when the email already has an account. */
  insert(user: User): Promise<void>;
  findByEmail(email: string): Promise<User | undefined>;
}
export const UserRepository = Symbol('UserRepository');
