import type { AuditRecorder } from './audit';
import type { Clock } from '../../shared';
import type { DashboardSessionRepository } from '../ports/dashboard-session.repository.port';
import type { UnitOfWork } from '../../shared';

/** Ends the caller's session server-side: the token signs nobody in again, whatever the browser keeps. */
export class SignOut {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly sessions: DashboardSessionRepository,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  execute(input: { merchantId: string; userId: string; sessionId: string }): Promise<void> {
    return this.uow.run(async () => {
      await this.sessions.end(input.merchantId, input.sessionId, this.clock.now());
      await this.audit.record({ merchantId: input.merchantId, userId: input.userId, action: 'session.ended', objectType: 'dashboard_session', objectId: input.sessionId });
    });
  }
}
