import { Clock, FxRateSource, PaymentPricing, QuoteFx } from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass, value } from './wiring';
import type { Capability } from './capability';
import getFxQuote from '../routes/fx/get-fx-quote.route';

/** FX quotes and the pricing of a payment (spread and fees from the configuration). */
export const fxModule: Capability = {
  bindings: (config) =>
    new ContainerModule((options) => {
      const settings = value({ spreadBps: config.fxSpreadBps, fees: config.fees });
      bindClass(options, PaymentPricing, { rates: FxRateSource, settings, clock: Clock });
      bindClass(options, QuoteFx, { rates: FxRateSource, settings });
    }),
  routes: [getFxQuote],
};
