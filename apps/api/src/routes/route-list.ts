import type { Route } from '../http/define-route';
import getBalance from './ledger/get-balance.route';
import listDisputes from './disputes/list-disputes.route';
import getDispute from './disputes/get-dispute.route';
import submitDisputeEvidence from './disputes/submit-dispute-evidence.route';
import getFxQuote from './fx/get-fx-quote.route';
import openApiDocument from './meta/openapi-document.route';
import createPaymentIntent from './payments/create-payment-intent.route';
import listPaymentIntents from './payments/list-payment-intents.route';
import getPaymentIntent from './payments/get-payment-intent.route';
import cancelPaymentIntent from './payments/cancel-payment-intent.route';
import createPaymentAttempt from './payments/create-payment-attempt.route';
import listPaymentAttempts from './payments/list-payment-attempts.route';
import simulatePayment from './payments/simulate-payment.route';
import advanceTimer from './payments/advance-timer.route';
import createSettlement from './settlements/create-settlement.route';
import listSettlements from './settlements/list-settlements.route';
import getSettlement from './settlements/get-settlement.route';
import listEvents from './webhooks/list-events.route';
import listWebhookPublicKeys from './webhooks/list-webhook-public-keys.route';

// Each capability's routes, whoever calls them; the plugin of each kind of access registers its own.

export const paymentRoutes: readonly Route[] = [
  createPaymentIntent,
  listPaymentIntents,
  getPaymentIntent,
  cancelPaymentIntent,
  createPaymentAttempt,
  listPaymentAttempts,
  simulatePayment,
  advanceTimer,
];

export const disputeRoutes: readonly Route[] = [listDisputes, getDispute, submitDisputeEvidence];

export const ledgerRoutes: readonly Route[] = [getBalance];

export const settlementRoutes: readonly Route[] = [createSettlement, listSettlements, getSettlement];

export const fxRoutes: readonly Route[] = [getFxQuote];

export const webhookRoutes: readonly Route[] = [listEvents, listWebhookPublicKeys];

export const metaRoutes: readonly Route[] = [openApiDocument];

/** What server.ts registers. */
export const allRoutes: readonly Route[] = [...paymentRoutes, ...disputeRoutes, ...ledgerRoutes, ...settlementRoutes, ...fxRoutes, ...webhookRoutes, ...metaRoutes];
