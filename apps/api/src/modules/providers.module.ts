import { ChannelCredentialStore, Clock, FxRateSource, PaymentChannelRegistry, PayoutGateway, RandomSource, SecretBox } from '@payments/core';
import { OmisePaymentChannel } from '@payments/channel-omise';
import { StripePaymentChannel } from '@payments/channel-stripe';
import { KnexChannelCredentialStore } from '@payments/storage-sql';
import { createRestChannel } from '@payments/channel-rest';
import { KnexSimulatorOrderBook, SimulatedPayoutGateway, SimulatorPaymentChannel } from '@payments/channel-simulator';
import { BundledFxRateSource, HttpFxRateSource } from '@payments/fx-rates';
import { createRestPayoutGateway } from '@payments/payout-rest';
import { ContainerModule } from 'inversify';
import type { Knex } from 'knex';
import { createHmac } from 'node:crypto';
import { StaticChannelRegistry } from '../channels';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { ModePayoutGateway } from '../payouts';
import type { ContainerOverrides } from './overrides';
import type { Tracing } from '../tracing/tracing';
import { bindBuilt, bindValue, resolve } from './wiring';

/** The simulator's callback key, derived from the master key: the same in every process, never stored. */
export function simulatorCallbackSecret(masterKey: Buffer): Buffer {
  return createHmac('sha256', masterKey).update('simulator channel callbacks').digest();
}

/**
 * The third parties money moves through: the payment channels (the test-mode simulator, the REST
 * channel when configured), mid rates (bundled or a rate service) and payouts (simulated in test
 * mode, the configured provider in live mode).
 */
export const providersModule = (config: Config, knex: Knex, logger: Logger, overrides: ContainerOverrides, tracing?: Tracing): ContainerModule =>
  new ContainerModule((options) => {
    // With tracing on, calls to third parties carry the trace's `traceparent`.
    const traceHeaders = tracing ? { traceHeaders: () => tracing.outgoingHeaders() } : {};
    bindBuilt(
      options,
      SimulatorPaymentChannel,
      (ctx) =>
        new SimulatorPaymentChannel(new KnexSimulatorOrderBook(knex), resolve(ctx, Clock), resolve(ctx, RandomSource), {
          callbackSecret: simulatorCallbackSecret(config.masterKey),
          settleAfterMs: config.tickMs,
          // The stand-in wallet page of the checkout plugin, so a test redirect lands somewhere real.
          walletUrl: `${config.baseUrl}/checkout/simulator-wallet`,
          ...traceHeaders,
        }),
    );
    bindBuilt(options, ChannelCredentialStore, (ctx) => new KnexChannelCredentialStore(knex, resolve(ctx, SecretBox)));
    bindBuilt(options, PaymentChannelRegistry, (ctx) => {
      const rest = createRestChannel(config.restChannel, { clock: resolve(ctx, Clock), logger, ...traceHeaders });
      // First in routing order: it takes only the merchants the operator gave Stripe keys
      // (`servesMerchant`), and the others go on to the simulator and the rest channel as before.
      const stripe = config.stripeChannel
        ? [new StripePaymentChannel({ credentials: resolve(ctx, ChannelCredentialStore), clock: resolve(ctx, Clock), logger, ...overrides.stripe })]
        : [];
      // Likewise for Omise: only the merchants with Omise keys for the mode.
      const omise = config.omiseChannel
        ? [new OmisePaymentChannel({ credentials: resolve(ctx, ChannelCredentialStore), clock: resolve(ctx, Clock), logger, ...overrides.omise })]
        : [];
      return new StaticChannelRegistry([...stripe, ...omise, resolve(ctx, SimulatorPaymentChannel), ...(rest ? [rest] : []), ...(overrides.channels ?? [])]);
    });
    bindValue(
      options,
      FxRateSource,
      config.fxRatesUrl
        ? new HttpFxRateSource({ url: config.fxRatesUrl, timeoutMs: config.fxRatesTimeoutMs, cacheTtlMs: config.fxRatesCacheTtlMs })
        : new BundledFxRateSource(),
    );
    const livePayouts = createRestPayoutGateway(config.payoutRest, { logger: { warn: (details, message) => logger.warn(details, message) }, ...traceHeaders });
    bindValue(
      options,
      PayoutGateway,
      overrides.payoutGateway ?? new ModePayoutGateway({ test: new SimulatedPayoutGateway(), ...(livePayouts ? { live: livePayouts } : {}) }),
    );
  });
