/**
 * A message for the account's email (never a webhook event): written with the change it tells of,
 * in the same transaction, and sent later by the worker through the EmailSender.
 */
export interface Notice {
  readonly id: string;
  readonly merchantId: string;
  /** What happened, e.g. `payout_destination.registered`. */
  readonly kind: string;
  /** The address it goes to: the account's email when it was written. */
  readonly recipient: string;
  /** Facts the message is rendered from; never a secret, code or full account number. */
  readonly details: Readonly<Record<string, string | number | boolean>>;
  readonly created: Date;
  readonly sentAt?: Date;
}

export interface RenderedNotice {
  readonly subject: string;
  readonly text: string;
}

const CLOSING = 'If you did not make this change, sign in to the dashboard, review your team and payout destinations, and contact support.';

/** The email of a notice. Unknown kinds get a plain list of their details. */
export function renderNotice(notice: Notice): RenderedNotice {
  const d = notice.details;
  const destination = `${String(d.type) === 'simulated' ? 'simulated account' : 'bank account'} ending ${String(d.account_last4)} (${String(d.currency)}, ${String(d.mode)} mode)`;
  const by = d.user_email === undefined ? '' : ` by ${String(d.user_email)}`;
  const hold = d.hold_until === undefined ? '' : ` Settlements are held until ${String(d.hold_until)}.`;
  switch (notice.kind) {
    case 'payout_destination.registered':
      return {
        subject: 'A payout destination was added to your account',
        text: `A payout destination, ${destination}, was added${by}.${hold}\n\n${CLOSING}`,
      };
    case 'payout_destination.default_changed':
      return {
        subject: 'Your default payout destination changed',
        text: `Settlements will now be paid to the ${destination}; the change was made${by}.${hold}\n\n${CLOSING}`,
      };
    case 'user.mfa_reset':
      return {
        subject: 'A second factor was reset on your team',
        text: `The second factor of ${String(d.user_email)} was reset by ${String(d.reset_by)}; their sessions were ended and their old codes no longer work. They set up a new one with their email and password.\n\n${CLOSING}`,
      };
    case 'user.added':
      return {
        subject: 'A member was added to your team',
        text: `${String(d.user_email)} was added to your team as ${String(d.role)} by ${String(d.added_by)}. They set up their second factor with their email and password before they can sign in.\n\n${CLOSING}`,
      };
    case 'user.role_granted':
      return {
        subject: `A team member was made ${String(d.role_to)}`,
        text: `${String(d.user_email)} was changed from ${String(d.role_from)} to ${String(d.role_to)} by ${String(d.granted_by)}.\n\n${CLOSING}`,
      };
    case 'webhook_endpoint.disabled':
      return {
        subject: 'A webhook endpoint was disabled',
        text: `The ${String(d.mode)} mode webhook endpoint ${String(d.url)} (${String(d.endpoint)}) was disabled because ${
          d.reason === 'gone' ? 'it answered 410 Gone' : 'every delivery to it failed for five days'
        }. No events are queued for it while it is disabled. Fix the receiver, then enable it again in the dashboard; failed deliveries can be resent from the delivery log.`,
      };
    default:
      return {
        subject: `Account notice: ${notice.kind}`,
        text: `${Object.entries(d)
          .map(([key, value]) => `${key}: ${String(value)}`)
          .join('\n')}\n\n${CLOSING}`,
      };
  }
}
