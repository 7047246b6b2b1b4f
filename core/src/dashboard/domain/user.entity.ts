export type UserRole = 'owner' | 'admin' | 'developer' | 'viewer';
export type UserStatus = 'active' | 'disabled';
export const USER_ROLES: readonly UserRole[] = ['owner', 'admin', 'developer', 'viewer'];
export const USER_STATUSES: readonly UserStatus[] = ['active', 'disabled'];

/** The length of a dashboard password, checked for the owner at onboarding and for every member added. */
export const PASSWORD_LENGTH = { min: 12, max: 256 } as const;

/** A member of a merchant's team who signs in to the dashboard. */
export interface User {
  readonly id: string;
  readonly merchantId: string;
  readonly email: string;
  readonly name?: string;
  readonly role: UserRole;
  readonly status: UserStatus;
  /** Self-describing hash (algorithm and parameters included) so parameters can be raised later. */
  readonly passwordHash: string;
  /** The TOTP secret, sealed by the SecretBox; absent until the user claims a second factor. */
  readonly mfaSecret?: string;
  /** The last TOTP time step a code was accepted for: a code of that step or earlier is refused. */
  readonly mfaLastStep?: number;
  readonly created: Date;
}
