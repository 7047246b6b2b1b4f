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

/** The hosted checkout: the session a token opens, the page, paying and its state. */
export const checkoutModule = (): ContainerModule =>
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
  });
