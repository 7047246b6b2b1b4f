import { Clock, FxRateSource, PaymentPricing, QuoteFx } from '@payments/core';
import { ContainerModule } from 'inversify';
import type { Config } from '../config';
import { bindClass, value } from './wiring';

/** FX quotes and the pricing of a payment (spread and fees from the configuration). */
export const fxModule = (config: Config): ContainerModule =>
  new ContainerModule((options) => {
    const settings = value({ spreadBps: config.fxSpreadBps, fees: config.fees });
    bindClass(options, PaymentPricing, { rates: FxRateSource, settings, clock: Clock });
    bindClass(options, QuoteFx, { rates: FxRateSource, settings });
  });
