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

/**
 * Drains the notice outbox: each pending notice is rendered, handed to the EmailSender and marked
 * sent. At least once: a crash between sending and marking sends that notice again. A notice the
 * sender refuses stays pending, recorded as a failing item and tried again after its backoff,
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

  /** Sends one notice and marks it sent; true unless another worker marked it first. */
  async handle(notice: Notice): Promise<boolean> {
    const { subject, text } = renderNotice(notice);
    await this.deps.email.send({ to: notice.recipient, subject, text });
    return this.deps.notices.markSent(notice.id, this.deps.clock.now());
  }
}
