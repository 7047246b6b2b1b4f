import type { Clock, PasswordHasher, PaymentChannel, PayoutGateway, WebhookSender } from '@payments/core';
import type { Logger } from '../logger';

/** Replacements for tests: a fake clock, a cheaper password hash. */
export interface ContainerOverrides {
  readonly clock?: Clock;
  readonly passwordHasher?: PasswordHasher;
  readonly logger?: Logger;
  /** Extra channels, routed after the built-in ones (tests register channels that refuse or fail). */
  readonly channels?: readonly PaymentChannel[];
  /** Replaces the HTTP webhook sender (tests that record deliveries instead of sending them). */
  readonly webhookSender?: WebhookSender;
  /** Replaces the payout gateway of both modes (tests of failed or slow payouts). */
  readonly payoutGateway?: PayoutGateway;
}
