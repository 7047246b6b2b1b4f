import type { User } from '@payments/core';
import { timestamp } from '../../http/presenting';

export interface DashboardUserJson {
  readonly id: string;
  readonly object: 'dashboard_user';
  readonly email: string;
  readonly name?: string;
  readonly role: string;
  readonly status: string;
  readonly mfa_enabled: boolean;
  readonly created: string;
}

/** A team member on the wire: never the password hash, the sealed secret or the last step used. */
export function presentUser(user: User): DashboardUserJson {
  return {
    id: user.id,
    object: 'dashboard_user',
    email: user.email,
    ...(user.name === undefined ? {} : { name: user.name }),
    role: user.role,
    status: user.status,
    mfa_enabled: user.mfaSecret !== undefined,
    created: timestamp(user.created),
  };
}
