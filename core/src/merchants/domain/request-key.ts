/**
 * Whose keys a key is one of: every API key of a merchant shares `api` (a retry may come through
 * another key of the account); each dashboard user has their own (`dashboardCaller`).
 */
export const API_CALLER = 'api';

/** The caller of a dashboard user's keys. */
export function dashboardCaller(userId: string): string {
  return `dashboard:${userId}`;
}

/**
 * A request's key, and whose it is. The caller is part of the key's identity, so a key sent by a
 * dashboard user can never replay, or be blocked by, an API caller's request of the same key.
 */
export interface RequestKey {
  readonly caller: string;
  readonly key: string;
}
