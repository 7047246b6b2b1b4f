import { DisputeRepository, Ledger, PaymentDisputes, PaymentFunds, paymentDisputesOf } from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindBuilt, bindClass, resolve } from './wiring';
import type { Capability } from './capability';

/** A payment's money: the one owner of every posting that moves it. */
export const fundsModule: Capability = {
  bindings: () =>
    new ContainerModule((options) => {
      bindBuilt(options, PaymentDisputes, (ctx) => paymentDisputesOf(resolve(ctx, DisputeRepository)));
      bindClass(options, PaymentFunds, { ledger: Ledger, disputes: PaymentDisputes });
    }),
  routes: [],
};
