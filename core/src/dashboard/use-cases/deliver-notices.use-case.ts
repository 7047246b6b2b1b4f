import type { ItemJob, JobLane } from '../../jobs';
import type { Clock } from '../../common';
import { renderNotice, type Notice } from '../domain/notice.entity';
import type { EmailSender } from '../ports/email-sender.port';
import type { NoticeOutbox } from '../ports/notice-outbox.port';
export interface DeliverNoticesDeps {
  readonly notices: NoticeOutbox;
  readonly email: EmailSender;
  readonly clock: Clock;
}

/** How long a notice is held by the worker sending it before another may presume it dead. */
export const NOTICE_LEASE_MS = 60_000;

/**
 * Drains the notice outbox: each pending notice is leased, rendered, handed to the EmailSender and
 * marked sent. At least once: a crash between sending and marking sends that notice again (after
 * its lease). The lease keeps two workers that both run the job from sending it twice. A notice
 * the sender refuses stays pending, recorded as a failing item and tried again after its backoff,
 * while the others go.
 */
export class DeliverNotices implements ItemJob<Notice> {
  constructor(private readonly deps: DeliverNoticesDeps) {}

  readonly name = 'deliver-notices';
  readonly lanes: readonly JobLane[] = ['platform'];

  due(_lane: JobLane, limit: number, deferred: ReadonlySet<string>): Promise<Notice[]> {
    return this.deps.notices.pending(limit + deferred.size);
  }

  idOf(notice: Notice): string {
    return notice.id;
  }

  /** Sends one notice and marks it sent; false when another worker holds it or sent it first. */
  async handle(notice: Notice): Promise<boolean> {
    const now = this.deps.clock.now();
    const leaseUntil = new Date(now.getTime() + NOTICE_LEASE_MS);
    if (!(await this.deps.notices.claim(notice.id, now, leaseUntil))) return false;
    const { subject, text } = renderNotice(notice);
    try {
      await this.deps.email.send({ to: notice.recipient, subject, text });
    } catch (error) {
      // Refused, so not sent: its next try (the job's backoff) need not wait for the lease.
      await this.deps.notices.release(notice.id, leaseUntil).catch(() => undefined);
      throw error;
    }
    return this.deps.notices.markSent(notice.id, this.deps.clock.now());
  }
}
