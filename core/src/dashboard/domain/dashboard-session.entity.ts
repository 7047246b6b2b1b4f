/**
 * A signed-in dashboard session. The token the browser holds (in the `dashboard_session` cookie)
 * is never stored: only its SHA-256 digest, so a copy of the table signs nobody in.
 */
export interface DashboardSession {
  readonly id: string;
  /** Lower-case hex SHA-256 of the token. */
  readonly tokenDigest: string;
  readonly userId: string;
  readonly merchantId: string;
  readonly created: Date;
  /** A fixed 30 minutes after sign-in; using the session does not extend it. */
  readonly expiresAt: Date;
  /** Set by sign-out, by disabling the user, or by a reset of the user's second factor. */
  readonly ended?: Date;
}

/** How long a session lives after sign-in, not extended by use. */
export const DASHBOARD_SESSION_TTL_MS = 30 * 60 * 1000;

/** True while the session may be used at `now`. */
export function isSessionLive(session: DashboardSession, now: Date): boolean {
  return session.ended === undefined && now.getTime() < session.expiresAt.getTime();
}
