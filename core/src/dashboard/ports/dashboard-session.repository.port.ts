import { token } from '../../common';
import type { DashboardSession } from '../domain/dashboard-session.entity';

/** Server-side dashboard sessions, found by the digest of the token the cookie carries. */
export interface DashboardSessionRepository {
  insert(session: DashboardSession): Promise<void>;
  /** The session whose token has this digest, ended and expired ones included; else undefined. */
  findByTokenDigest(tokenDigest: string): Promise<DashboardSession | undefined>;
  /** Ends the session at `at` unless it has ended already (the first end is kept). */
  end(merchantId: string, id: string, at: Date): Promise<void>;
  /** Ends every session of the user not yet ended; returns how many it ended. */
  endAllForUser(merchantId: string, userId: string, at: Date): Promise<number>;
  /** Deletes sessions that expired before `cutoff` (housekeeping); returns how many. */
  deleteExpiredBefore(cutoff: Date): Promise<number>;
}
export const DashboardSessionRepository = token<DashboardSessionRepository>('DashboardSessionRepository');
