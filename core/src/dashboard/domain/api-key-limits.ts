import { CoreError, type Mode } from '../../common';
import { API_KEY_RESOURCES, permissionName, type ApiKeyPermission, type ApiKeyPermissions } from '../../merchants';
import { mayPerform, type DashboardAction } from './dashboard-access';
import type { UserRole } from './user.entity';

/**
 * The dashboard action a person must hold to give a live key each permission: a key never does
 * more than the person who made it may do in the dashboard. Creating payment intents and their
 * attempts is no dashboard action (it is what a developer integrates), and the webhook public keys
 * are public, so those need none. Refunds, payouts and dispute evidence move money or answer for
 * it: owner and admin work (docs/dashboard.md, "Roles").
 */
const ACTION_FOR_PERMISSION: Readonly<Record<ApiKeyPermission, DashboardAction | undefined>> = {
  'payment_intents:read': 'payments.read',
  'payment_intents:write': undefined,
  'refunds:read': 'payments.read',
  'refunds:write': 'refunds.write',
  'disputes:read': 'disputes.read',
  'disputes:write': 'disputes.write',
  'settlements:read': 'settlements.read',
  'settlements:write': 'settlements.write',
  'balance:read': 'balance.read',
  'balance:write': 'balance.read',
  'events:read': 'events.read',
  'events:write': 'events.read',
  'webhook_public_keys:read': undefined,
  'webhook_public_keys:write': undefined,
};

/** The first permission of `permissions` (every one, for a secret key) that `role` may not give a live key, if any. */
export function permissionBeyondRole(role: UserRole, permissions: ApiKeyPermissions | undefined): ApiKeyPermission | undefined {
  for (const resource of API_KEY_RESOURCES) {
    const access = permissions === undefined ? 'write' : permissions[resource];
    if (access === undefined) continue;
    for (const level of access === 'write' ? (['read', 'write'] as const) : (['read'] as const)) {
      const permission = permissionName(resource, level);
      const action = ACTION_FOR_PERMISSION[permission];
      if (action !== undefined && !mayPerform(role, action)) return permission;
    }
  }
  return undefined;
}

/**
 * Throws 403 `insufficient_permissions` when `role` may not mint this key: a live key that could do
 * what the role may not (a secret key reaches everything, so only owners and admins mint a live
 * one). Test keys move no real money: any role that may manage keys mints them of any kind.
 */
export function authorizeKeyMint(role: UserRole, mode: Mode, permissions: ApiKeyPermissions | undefined): void {
  if (mode !== 'live') return;
  const beyond = permissionBeyondRole(role, permissions);
  if (beyond === undefined) return;
  if (permissions === undefined) {
    throw new CoreError(
      'insufficient_permissions',
      'forbidden',
      `The ${role} role may not mint a live secret key: it can do what the role may not (${beyond}). Mint a restricted key, or ask an owner or admin.`,
      { param: 'permissions' },
    );
  }
  throw new CoreError('insufficient_permissions', 'forbidden', `The ${role} role may not give a live key the permission ${beyond}.`, {
    param: `permissions.${beyond.split(':')[0]}`,
  });
}
