import type { Route } from '../http/define-route';
import getBalance from './ledger/get-balance.route';
import listDisputes from './disputes/list-disputes.route';
import getDispute from './disputes/get-dispute.route';
import submitDisputeEvidence from './disputes/submit-dispute-evidence.route';
import checkoutAsset from './checkout/checkout-asset.route';
import checkoutPage from './checkout/checkout-page.route';
import checkoutPay from './checkout/checkout-pay.route';
import checkoutSimulate from './checkout/checkout-simulate.route';
import checkoutStatus from './checkout/checkout-status.route';
import simulatorWallet from './checkout/simulator-wallet.route';
import addUser from './dashboard/add-user.route';
import claimMfa from './dashboard/claim-mfa.route';
import createApiKey from './dashboard/create-api-key.route';
import getSession from './dashboard/get-session.route';
import getSettings from './dashboard/get-settings.route';
import listApiKeys from './dashboard/list-api-keys.route';
import listSigningKeys from './dashboard/list-signing-keys.route';
import listUsers from './dashboard/list-users.route';
import registerSigningKey from './dashboard/register-signing-key.route';
import resetUserMfa from './dashboard/reset-user-mfa.route';
import revokeApiKey from './dashboard/revoke-api-key.route';
import signIn from './dashboard/sign-in.route';
import signOut from './dashboard/sign-out.route';
import updateSettings from './dashboard/update-settings.route';
import updateUser from './dashboard/update-user.route';
import getFxQuote from './fx/get-fx-quote.route';
import health from './meta/health.route';
import healthLive from './meta/health-live.route';
import healthReady from './meta/health-ready.route';
import openApiDocument from './meta/openapi-document.route';
import createPaymentIntent from './payments/create-payment-intent.route';
import listPaymentIntents from './payments/list-payment-intents.route';
import getPaymentIntent from './payments/get-payment-intent.route';
import cancelPaymentIntent from './payments/cancel-payment-intent.route';
import createPaymentAttempt from './payments/create-payment-attempt.route';
import listPaymentAttempts from './payments/list-payment-attempts.route';
import simulatePayment from './payments/simulate-payment.route';
import advanceTimer from './payments/advance-timer.route';
import channelCallback from './payments/channel-callback.route';
import createSettlement from './settlements/create-settlement.route';
import listSettlements from './settlements/list-settlements.route';
import getSettlement from './settlements/get-settlement.route';
import listPayoutMethods from './settlements/list-payout-methods.route';
import registerPayoutMethod from './settlements/register-payout-method.route';
import setDefaultPayoutMethod from './settlements/set-default-payout-method.route';
import createWebhookEndpoint from './webhooks/create-webhook-endpoint.route';
import deleteWebhookEndpoint from './webhooks/delete-webhook-endpoint.route';
import listEvents from './webhooks/list-events.route';
import listWebhookDeliveries from './webhooks/list-webhook-deliveries.route';
import listWebhookEndpoints from './webhooks/list-webhook-endpoints.route';
import listWebhookPublicKeys from './webhooks/list-webhook-public-keys.route';
import resendWebhookDelivery from './webhooks/resend-webhook-delivery.route';
import updateWebhookEndpoint from './webhooks/update-webhook-endpoint.route';

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
  channelCallback,
];

export const disputeRoutes: readonly Route[] = [listDisputes, getDispute, submitDisputeEvidence];

export const ledgerRoutes: readonly Route[] = [getBalance];

export const settlementRoutes: readonly Route[] = [
  createSettlement,
  listSettlements,
  getSettlement,
  listPayoutMethods,
  registerPayoutMethod,
  setDefaultPayoutMethod,
];

export const fxRoutes: readonly Route[] = [getFxQuote];

export const webhookRoutes: readonly Route[] = [
  listEvents,
  listWebhookPublicKeys,
  listWebhookEndpoints,
  createWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  resendWebhookDelivery,
];

export const dashboardRoutes: readonly Route[] = [
  signIn,
  getSession,
  signOut,
  claimMfa,
  listUsers,
  addUser,
  updateUser,
  resetUserMfa,
  getSettings,
  updateSettings,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  listSigningKeys,
  registerSigningKey,
];

export const checkoutRoutes: readonly Route[] = [checkoutPage, checkoutStatus, checkoutPay, checkoutSimulate, checkoutAsset, simulatorWallet];

/** Probes and the OpenAPI document. */
export const metaRoutes: readonly Route[] = [health, healthLive, healthReady, openApiDocument];

/** What server.ts registers. */
export const allRoutes: readonly Route[] = [
  ...paymentRoutes,
  ...disputeRoutes,
  ...ledgerRoutes,
  ...settlementRoutes,
  ...fxRoutes,
  ...webhookRoutes,
  ...dashboardRoutes,
  ...checkoutRoutes,
  ...metaRoutes,
];
