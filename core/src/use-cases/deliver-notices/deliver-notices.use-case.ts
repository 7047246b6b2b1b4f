import { renderNotice } from '../../domain/notice.entity';
import type { Clock } from '../../ports/clock.port';
import type { EmailSender } from '../../ports/email-sender.port';
import type { NoticeOutbox } from '../../ports/notice-outbox.port';

/**
 * Drains the notice outbox: each pending notice is rendered, handed to the EmailSender and marked
 * sent. At least once: a crash between sending and marking sends that notice again. A notice the
 * sender refuses stays pending for a later pass while the others go; the pass then fails so the
 * worker logs it.
 */
export class DeliverNotices {
  constructor(
    private readonly notices: NoticeOutbox,
    private readonly email: EmailSender,
    private readonly clock: Clock,
  ) {}

  /** Returns how many notices were sent. */
  async execute(input: { limit: number }): Promise<number> {
    let sent = 0;
    const failures: unknown[] = [];
    for (const notice of await this.notices.pending(input.limit)) {
      try {
        const { subject, text } = renderNotice(notice);
        await this.email.send({ to: notice.recipient, subject, text });
        if (await this.notices.markSent(notice.id, this.clock.now())) sent += 1;
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} notice(s) could not be sent; they stay pending (${sent} sent).`);
    return sent;
  }
}
