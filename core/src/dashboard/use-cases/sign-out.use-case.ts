import type { Clock, UnitOfWork } from '../../common';
import type { DashboardSessionRepository } from '../ports/dashboard-session.repository.port';
import type { AuditRecorder } from './audit';
export interface SignOutDeps {
  readonly uow: UnitOfWork;
  readonly sessions: DashboardSessionRepository;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
}

/** Ends the caller's session server-side: the token signs nobody in again, whatever the browser keeps. */
export class SignOut {
  constructor(private readonly deps: SignOutDeps) {}

  execute(input: { merchantId: string; userId: string; sessionId: string }): Promise<void> {
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      await self.deps.sessions.end(input.merchantId, input.sessionId, self.deps.clock.now());
      await self.deps.audit.record({
        merchantId: input.merchantId,
        userId: input.userId,
        action: 'session.ended',
        objectType: 'dashboard_session',
        objectId: input.sessionId,
      });
    });
  }
}
