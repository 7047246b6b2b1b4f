import type { Email, EmailSender } from '@payments/core';
import type { Logger } from './logger';

/**
 * The default EmailSender: writes each email to the log at info instead of sending it, so a
 * development or embedded install shows its notices without mail setup. Notices never carry a
 * secret, a code or a full account number, so the whole message may be logged.
 */
export class LogEmailSender implements EmailSender {
  constructor(private readonly logger: Logger) {}

  async send(email: Email): Promise<void> {
    this.logger.info({ email: { to: email.to, subject: email.subject, text: email.text } }, 'email (log adapter, not sent)');
  }
}
