import { CoreError } from '../../common';
import type { UserRole } from './user.entity';

/**
 * What a dashboard route does, named once. Every dashboard route declares its action; the table
 * below is the only place that says which role may do what.
 */
export const DASHBOARD_ACTIONS = [
  'session.read',
  'users.read',
  'users.write',
  'users.reset_mfa',
  'settings.read',
  'settings.write',
  'api_keys.read',
  'api_keys.write',
  'signing_keys.read',
  'signing_keys.write',
  'payout_methods.read',
  'payout_methods.write',
  'webhook_endpoints.read',
  'webhook_endpoints.write',
  'webhook_deliveries.read',
  'webhook_deliveries.write',
  'payments.read',
  'disputes.read',
  'disputes.write',
  'balance.read',
  'settlements.read',
  'settlements.write',
  'events.read',
  'refunds.write',
] as const;
export type DashboardAction = (typeof DASHBOARD_ACTIONS)[number];

const READS: readonly DashboardAction[] = DASHBOARD_ACTIONS.filter((action) => action.endsWith('.read'));

/**
 * The roles (docs/dashboard.md): owner everything; admin everything (granting or removing the owner
 * role is refused by the team use cases, not here); developer API keys, signing keys, webhook
 * endpoints and deliveries, and reads the rest; viewer reads only. Moving money (refunds, payouts)
 * and answering disputes are owner and admin work: developer and viewer only read them.
 */
export const ROLE_PERMISSIONS: Readonly<Record<UserRole, readonly DashboardAction[]>> = {
  owner: DASHBOARD_ACTIONS,
  admin: DASHBOARD_ACTIONS,
  developer: [...READS, 'api_keys.write', 'signing_keys.write', 'webhook_endpoints.write', 'webhook_deliveries.write'],
  viewer: READS,
};

export function mayPerform(role: UserRole, action: DashboardAction): boolean {
  return ROLE_PERMISSIONS[role].includes(action);
}

/** Throws 403 `forbidden` when `role` may not perform `action`. */
export function authorize(role: UserRole, action: DashboardAction): void {
  if (!mayPerform(role, action)) {
    throw new CoreError('forbidden', 'forbidden', `The ${role} role may not do this (${action}).`);
  }
}
