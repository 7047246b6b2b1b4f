import { AddTeamUser, ClaimMfa, ListTeamUsers, ResetTeamUserMfa, SignIn, SignOut, UpdateTeamUser } from '@payments/core';
import {
  CreateApiKey,
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  GetMerchantSettings,
  ListApiKeys,
  ListPayoutDestinations,
  ListSigningKeys,
  ListWebhookEndpoints,
  RegisterPayoutDestination,
  RegisterSigningKey,
  RevokeApiKey,
  SetDefaultPayoutDestination,
  UpdateMerchantSettings,
  UpdateWebhookEndpoint,
} from '@payments/core';
import { AppConfig, type AppContainer } from '../../container';
import type { Config } from '../../config';
import { ClientIp } from '../../http/client-ip';
import type { AuthRoutesDeps } from './auth.routes';
import type { ResourceRoutesDeps } from './resource.routes';
import type { WebhookDeliveryRoutesDeps } from './webhook-deliveries.routes';
import { GetWebhookEndpointHealth, ListWebhookDeliveries, ResendWebhookDelivery } from '@payments/core';

/** The composition root's hand-over to the dashboard routes: use cases out of the container. */
export function authRoutesDeps(app: AppContainer): AuthRoutesDeps {
  return {
    signIn: app.get(SignIn),
    signOut: app.get(SignOut),
    claimMfa: app.get(ClaimMfa),
    listTeamUsers: app.get(ListTeamUsers),
    addTeamUser: app.get(AddTeamUser),
    updateTeamUser: app.get(UpdateTeamUser),
    resetTeamUserMfa: app.get(ResetTeamUserMfa),
    clientIp: new ClientIp(app.get<Config>(AppConfig).trustedProxies),
  };
}

export function resourceRoutesDeps(app: AppContainer): ResourceRoutesDeps {
  return {
    getMerchantSettings: app.get(GetMerchantSettings),
    updateMerchantSettings: app.get(UpdateMerchantSettings),
    listApiKeys: app.get(ListApiKeys),
    createApiKey: app.get(CreateApiKey),
    revokeApiKey: app.get(RevokeApiKey),
    listSigningKeys: app.get(ListSigningKeys),
    registerSigningKey: app.get(RegisterSigningKey),
    listPayoutDestinations: app.get(ListPayoutDestinations),
    registerPayoutDestination: app.get(RegisterPayoutDestination),
    setDefaultPayoutDestination: app.get(SetDefaultPayoutDestination),
    listWebhookEndpoints: app.get(ListWebhookEndpoints),
    createWebhookEndpoint: app.get(CreateWebhookEndpoint),
    updateWebhookEndpoint: app.get(UpdateWebhookEndpoint),
    deleteWebhookEndpoint: app.get(DeleteWebhookEndpoint),
    getWebhookEndpointHealth: app.get(GetWebhookEndpointHealth),
  };
}

export function webhookDeliveryRoutesDeps(app: AppContainer): WebhookDeliveryRoutesDeps {
  return { listWebhookDeliveries: app.get(ListWebhookDeliveries), resendWebhookDelivery: app.get(ResendWebhookDelivery) };
}
