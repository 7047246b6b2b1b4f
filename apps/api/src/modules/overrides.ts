import type { OmisePaymentChannelOptions } from '@payments/channel-omise';
import type { StripePaymentChannelOptions } from '@payments/channel-stripe';
import type { Clock, PasswordHasher, PaymentChannel, PayoutGateway, WebhookSender } from '@payments/core';
import type { Logger } from '../logger';
import type { Tracing } from '../tracing/tracing';

/** Replacements for tests: a fake clock, a cheaper password hash. */
export interface ContainerOverrides {
  readonly clock?: Clock;
  readonly passwordHasher?: PasswordHasher;
  readonly logger?: Logger;
  /** Extra channels, routed after the built-in ones (tests register channels that refuse or fail). */
  readonly channels?: readonly PaymentChannel[];
  /** Replaces the HTTP webhook sender (tests that record deliveries instead of sending them). */
  readonly webhookSender?: WebhookSender;
  /** Settings of the stripe channel (with PAYMENTS_STRIPE_CHANNEL=on): tests give it an SDK client without retries. */
  readonly stripe?: Pick<StripePaymentChannelOptions, 'client' | 'maxNetworkRetries'>;
  /** Settings of the omise channel (with PAYMENTS_OMISE_CHANNEL=on): tests give it a shorter timeout. */
  readonly omise?: Pick<OmisePaymentChannelOptions, 'client' | 'timeoutMs'>;
  /** Replaces the payout gateway of both modes (tests of failed or slow payouts). */
  readonly payoutGateway?: PayoutGateway;
  /** Tracing made by the test (an in-memory exporter), instead of what the OTEL_* variables say. */
  readonly tracing?: Tracing;
}
