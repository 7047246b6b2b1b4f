import { token } from '../../common';
/** One plain-text email. */
export interface Email {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** Sends email. The default adapter only logs; a real one speaks SMTP or a provider's API. */
export interface EmailSender {
  /** Resolves once the message was accepted for delivery; throws when it was not (the caller retries later). */
  send(email: Email): Promise<void>;
}
export const EmailSender = token<EmailSender>('EmailSender');
