import type { Mode } from '../../common';
import { CoreError, invalidParameter, isRecord } from '../../common';

/** Length of the stored, listable prefix of a key: `sk_test_` (or `rk_live_` …) plus eight characters. */
export const API_KEY_PREFIX_LENGTH = 16;

/**
 * What a restricted key may be given, one name per group of `/v1` routes (docs/api-keys.md):
 * `payment_intents` covers the intents, their attempts, the payment test helpers and FX quotes;
 * `refunds` the refunds and their test helper; `balance` the balance and its transactions.
 */
export const API_KEY_RESOURCES = ['payment_intents', 'refunds', 'disputes', 'settlements', 'balance', 'events', 'webhook_public_keys'] as const;
export type ApiKeyResource = (typeof API_KEY_RESOURCES)[number];

/** `write` includes `read`. */
export const API_KEY_ACCESS_LEVELS = ['read', 'write'] as const;
export type ApiKeyAccess = (typeof API_KEY_ACCESS_LEVELS)[number];

/** A permission as the API names it: `refunds:write`. */
export type ApiKeyPermission = `${ApiKeyResource}:${ApiKeyAccess}`;

/** A restricted key's grants: each resource it may reach and how; a resource left out is closed. */
export type ApiKeyPermissions = Readonly<Partial<Record<ApiKeyResource, ApiKeyAccess>>>;

/** `secret`: every `/v1` route of its mode. `restricted`: only what its permissions name. */
export type ApiKeyKind = 'secret' | 'restricted';

/** What is stored of a key: its prefix and a SHA-256 digest, never the secret. */
export interface ApiKey {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly prefix: string;
  readonly secretDigest: string;
  readonly name?: string;
  /** Present on a restricted key only; an unrestricted key reaches every `/v1` route of its mode. */
  readonly permissions?: ApiKeyPermissions;
  readonly created: Date;
  readonly revokedAt?: Date;
}

export function apiKeyKindOf(key: Pick<ApiKey, 'permissions'>): ApiKeyKind {
  return key.permissions === undefined ? 'secret' : 'restricted';
}

/** `sk_test_` / `sk_live_` for a secret key, `rk_test_` / `rk_live_` for a restricted one: the same length, so the stored prefix is too. */
export function apiKeyPrefixFor(mode: Mode, kind: ApiKeyKind = 'secret'): string {
  return `${kind === 'restricted' ? 'rk' : 'sk'}_${mode}_`;
}

/** The mode a presented key claims, or undefined when it is not shaped like one of ours. */
export function modeOfSecret(secret: string): Mode | undefined {
  const match = /^[sr]k_(test|live)_[0-9A-Za-z]{24,128}$/.exec(secret);
  if (!match) return undefined;
  return match[1] === 'live' ? 'live' : 'test';
}

export function permissionName(resource: ApiKeyResource, access: ApiKeyAccess): ApiKeyPermission {
  return `${resource}:${access}`;
}

/** The resource and access of a permission's name. */
export function parsePermission(permission: ApiKeyPermission): { resource: ApiKeyResource; access: ApiKeyAccess } {
  const [resource, access] = permission.split(':');
  const known = API_KEY_RESOURCES.find((candidate) => candidate === resource);
  const level = API_KEY_ACCESS_LEVELS.find((candidate) => candidate === access);
  if (known === undefined || level === undefined) throw new Error(`Not a permission: ${permission}`);
  return { resource: known, access: level };
}

/** Whether a key with `permissions` (undefined: unrestricted) may do what `needed` names; `write` includes `read`. */
export function permits(permissions: ApiKeyPermissions | undefined, needed: ApiKeyPermission): boolean {
  if (permissions === undefined) return true;
  const { resource, access } = parsePermission(needed);
  const granted = permissions[resource];
  return granted === 'write' || (granted === 'read' && access === 'read');
}

/** Throws 403 `insufficient_permissions` naming the permission (`param`) when the key lacks it. */
export function requirePermission(permissions: ApiKeyPermissions | undefined, needed: ApiKeyPermission): void {
  if (!permits(permissions, needed)) {
    throw new CoreError('insufficient_permissions', 'forbidden', `This key lacks the permission ${needed}.`, { param: needed });
  }
}

/** Every permission a grant holds, in the order of the resources: `write` lists its `read` too. */
export function grantedPermissions(permissions: ApiKeyPermissions): ApiKeyPermission[] {
  return API_KEY_RESOURCES.flatMap((resource) => {
    const access = permissions[resource];
    if (access === undefined) return [];
    return access === 'write' ? [permissionName(resource, 'read'), permissionName(resource, 'write')] : [permissionName(resource, 'read')];
  });
}

/**
 * A restricted key's permissions as given (an object of resource → `read` | `write`), checked and
 * in the order of the resources: an unknown resource, another level, or no resource at all is 400
 * naming the field (a key that reaches nothing is no key).
 */
export function validateApiKeyPermissions(input: unknown, param = 'permissions'): ApiKeyPermissions {
  if (!isRecord(input)) throw invalidParameter(param, 'permissions must be an object of resource names to "read" or "write".');
  for (const [name, access] of Object.entries(input)) {
    if (!API_KEY_RESOURCES.some((resource) => resource === name)) {
      throw invalidParameter(`${param}.${name}`, `Unknown resource; the resources are ${API_KEY_RESOURCES.join(', ')}.`);
    }
    if (access !== 'read' && access !== 'write') throw invalidParameter(`${param}.${name}`, 'A permission is "read" or "write".');
  }
  const permissions: Partial<Record<ApiKeyResource, ApiKeyAccess>> = {};
  for (const resource of API_KEY_RESOURCES) {
    const access: unknown = input[resource];
    if (access === 'read' || access === 'write') permissions[resource] = access;
  }
  if (Object.keys(permissions).length === 0) throw invalidParameter(param, 'A restricted key needs at least one resource.');
  return permissions;
}
