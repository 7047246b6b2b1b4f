import {
  CheckoutSessionRepository,
  Clock,
  Digest,
  GetCheckoutPage,
  GetCheckoutState,
  MerchantRepository,
  PayCheckoutSession,
  PaymentAttemptRepository,
  PaymentIntentRepository,
  PlaceAttempt,
  ResolveCheckoutSession,
  SimulateCheckoutPayment,
  SimulatePayment,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass } from './wiring';
import type { Capability } from './capability';
import checkoutPage from '../routes/checkout/checkout-page.route';
import checkoutStatus from '../routes/checkout/checkout-status.route';
import checkoutPay from '../routes/checkout/checkout-pay.route';
import checkoutSimulate from '../routes/checkout/checkout-simulate.route';
import checkoutAsset from '../routes/checkout/checkout-asset.route';
import simulatorWallet from '../routes/checkout/simulator-wallet.route';

/** The hosted checkout: the session a token opens, the page, paying and its state. */
export const checkoutModule: Capability = {
  bindings: () =>
    new ContainerModule((options) => {
      bindClass(options, ResolveCheckoutSession, { sessions: CheckoutSessionRepository, intents: PaymentIntentRepository, digest: Digest, clock: Clock });
      bindClass(options, GetCheckoutPage, { resolve: ResolveCheckoutSession, merchants: MerchantRepository, attempts: PaymentAttemptRepository });
      bindClass(options, GetCheckoutState, { resolve: ResolveCheckoutSession, attempts: PaymentAttemptRepository });
      bindClass(options, PayCheckoutSession, {
        resolve: ResolveCheckoutSession,
        merchants: MerchantRepository,
        placeAttempt: PlaceAttempt,
        intents: PaymentIntentRepository,
        attempts: PaymentAttemptRepository,
      });
      bindClass(options, SimulateCheckoutPayment, { resolve: ResolveCheckoutSession, simulate: SimulatePayment, attempts: PaymentAttemptRepository });
    }),
  routes: [checkoutPage, checkoutStatus, checkoutPay, checkoutSimulate, checkoutAsset, simulatorWallet],
};
