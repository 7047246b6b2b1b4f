import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import {
  type CreateApiKey,
  type CreateWebhookEndpoint,
  type DeleteWebhookEndpoint,
  type GetWebhookEndpointHealth,
  type WebhookEndpoint,
  type GetMerchantSettings,
  type ListApiKeys,
  type ListPayoutDestinations,
  type ListSigningKeys,
  type ListWebhookEndpoints,
  type Mode,
  type RegisterPayoutDestination,
  type RegisterSigningKey,
  type RevokeApiKey,
  type SetDefaultPayoutDestination,
  type UpdateMerchantSettings,
  type UpdateWebhookEndpoint,
} from '@payments/core';
import { presentList } from '../../http/presenting';
import { actorOf, codeOf, dashboardRoute, modeQuery } from './dashboard-route';
import {
  presentApiKey,
  presentPayoutMethod,
  presentSettings,
  presentSigningKey,
  presentWebhookEndpoint,
  presentWebhookEndpointHealth,
} from './resource.presenters';
import {
  apiKeyCreateBody,
  apiKeyParams,
  noBody,
  payoutDefaultBody,
  payoutMethodCreateBody,
  payoutMethodParams,
  settingsPatchBody,
  signingKeyCreateBody,
  webhookEndpointCreateBody,
  webhookEndpointParams,
  webhookEndpointPatchBody,
} from './resource.schemas';

/** The resource slice: settings, API keys, signing keys, payout methods, webhook endpoints. */
export interface ResourceRoutesDeps {
  readonly getMerchantSettings: GetMerchantSettings;
  readonly updateMerchantSettings: UpdateMerchantSettings;
  readonly listApiKeys: ListApiKeys;
  readonly createApiKey: CreateApiKey;
  readonly revokeApiKey: RevokeApiKey;
  readonly listSigningKeys: ListSigningKeys;
  readonly registerSigningKey: RegisterSigningKey;
  readonly listPayoutDestinations: ListPayoutDestinations;
  readonly registerPayoutDestination: RegisterPayoutDestination;
  readonly setDefaultPayoutDestination: SetDefaultPayoutDestination;
  readonly listWebhookEndpoints: ListWebhookEndpoints;
  readonly createWebhookEndpoint: CreateWebhookEndpoint;
  readonly updateWebhookEndpoint: UpdateWebhookEndpoint;
  readonly deleteWebhookEndpoint: DeleteWebhookEndpoint;
  readonly getWebhookEndpointHealth: GetWebhookEndpointHealth;
}

/** The endpoint JSON with its delivery health (success rate over its attempts, last error). */
async function presentEndpointWithHealth(deps: ResourceRoutesDeps, endpoint: WebhookEndpoint): Promise<Record<string, unknown>> {
  return { ...presentWebhookEndpoint(endpoint), ...presentWebhookEndpointHealth(await deps.getWebhookEndpointHealth.execute(endpoint.id)) };
}

const modeOf = (request: Request): Mode => (request.query as { mode: Mode }).mode;
const payloadOf = <T>(request: Request): T => (request.payload ?? {}) as T;
const created = (h: ResponseToolkit, body: Record<string, unknown>) => h.response(body).code(201);

export function resourceRoutes(deps: ResourceRoutesDeps): ServerRoute[] {
  return [
    // Settings
    dashboardRoute({
      method: 'GET',
      path: '/dashboard/v1/settings',
      action: 'settings.read',
      handler: async (request) => presentSettings(await deps.getMerchantSettings.execute(actorOf(request).user)),
    }),
    dashboardRoute({
      method: 'PATCH',
      path: '/dashboard/v1/settings',
      action: 'settings.write',
      validate: { payload: settingsPatchBody },
      handler: async (request) => {
        const body = payloadOf<{ business_name?: string; support_email?: string | null; statement_descriptor?: string | null; settlement_schedule?: string }>(request);
        const merchant = await deps.updateMerchantSettings.execute(actorOf(request).user, {
          businessName: body.business_name,
          supportEmail: body.support_email,
          statementDescriptor: body.statement_descriptor,
          settlementSchedule: body.settlement_schedule,
        });
        return presentSettings(merchant);
      },
    }),

    // API keys
    dashboardRoute({
      method: 'GET',
      path: '/dashboard/v1/api_keys',
      action: 'api_keys.read',
      handler: async (request) => presentList(await deps.listApiKeys.execute(actorOf(request).user), presentApiKey),
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/api_keys',
      action: 'api_keys.write',
      validate: { payload: apiKeyCreateBody },
      handler: async (request, h) => {
        const body = payloadOf<{ mode: Mode; name?: string }>(request);
        const { key, secret } = await deps.createApiKey.execute(actorOf(request).user, { mode: body.mode, name: body.name });
        return created(h, { ...presentApiKey(key), secret });
      },
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/api_keys/{id}/revoke',
      action: 'api_keys.write',
      validate: { params: apiKeyParams, payload: noBody },
      handler: async (request) => presentApiKey(await deps.revokeApiKey.execute(actorOf(request).user, String(request.params.id))),
    }),

    // Signing keys
    dashboardRoute({
      method: 'GET',
      path: '/dashboard/v1/signing_keys',
      action: 'signing_keys.read',
      handler: async (request) => presentList(await deps.listSigningKeys.execute(actorOf(request).user), presentSigningKey),
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/signing_keys',
      action: 'signing_keys.write',
      validate: { payload: signingKeyCreateBody },
      handler: async (request, h) => {
        const body = payloadOf<{ public_key: string; name?: string }>(request);
        const key = await deps.registerSigningKey.execute(actorOf(request).user, { publicKey: body.public_key, name: body.name });
        return created(h, presentSigningKey(key));
      },
    }),

    // Payout methods (per mode)
    dashboardRoute({
      method: 'GET',
      path: '/dashboard/v1/payout_methods',
      action: 'payout_methods.read',
      validate: { query: modeQuery },
      handler: async (request) => presentList(await deps.listPayoutDestinations.execute(actorOf(request).user, modeOf(request)), presentPayoutMethod),
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/payout_methods',
      action: 'payout_methods.write',
      validate: { query: modeQuery, payload: payoutMethodCreateBody },
      handler: async (request, h) => {
        const body = payloadOf<{ type: string; currency: string; account_holder: string; bank_code: string; account_number: string; code?: unknown }>(request);
        const destination = await deps.registerPayoutDestination.execute(actorOf(request).user, {
          mode: modeOf(request),
          code: codeOf(body.code),
          type: body.type,
          currency: body.currency,
          accountHolder: body.account_holder,
          bankCode: body.bank_code,
          accountNumber: body.account_number,
        });
        return created(h, presentPayoutMethod(destination));
      },
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/payout_methods/{id}/default',
      action: 'payout_methods.write',
      validate: { query: modeQuery, params: payoutMethodParams, payload: payoutDefaultBody },
      handler: async (request) => {
        const body = payloadOf<{ code?: unknown }>(request);
        const destination = await deps.setDefaultPayoutDestination.execute(actorOf(request).user, {
          mode: modeOf(request),
          id: String(request.params.id),
          code: codeOf(body.code),
        });
        return presentPayoutMethod(destination);
      },
    }),

    // Webhook endpoints (create and list per mode; change and delete by id)
    dashboardRoute({
      method: 'GET',
      path: '/dashboard/v1/webhook_endpoints',
      action: 'webhook_endpoints.read',
      validate: { query: modeQuery },
      handler: async (request) => {
        const endpoints = await deps.listWebhookEndpoints.execute(actorOf(request).user, modeOf(request));
        return presentList(await Promise.all(endpoints.map((endpoint) => presentEndpointWithHealth(deps, endpoint))), (shown) => shown);
      },
    }),
    dashboardRoute({
      method: 'POST',
      path: '/dashboard/v1/webhook_endpoints',
      action: 'webhook_endpoints.write',
      validate: { query: modeQuery, payload: webhookEndpointCreateBody },
      handler: async (request, h) => {
        const body = payloadOf<{ url: string; enabled_events?: string[]; description?: string }>(request);
        const { endpoint, secret } = await deps.createWebhookEndpoint.execute(actorOf(request).user, {
          mode: modeOf(request),
          url: body.url,
          enabledEvents: body.enabled_events,
          description: body.description,
        });
        return created(h, { ...(await presentEndpointWithHealth(deps, endpoint)), secret });
      },
    }),
    dashboardRoute({
      method: 'PATCH',
      path: '/dashboard/v1/webhook_endpoints/{id}',
      action: 'webhook_endpoints.write',
      validate: { params: webhookEndpointParams, payload: webhookEndpointPatchBody },
      handler: async (request) => {
        const body = payloadOf<{ url?: string; enabled_events?: string[]; description?: string; api_version?: string; status?: string }>(request);
        const endpoint = await deps.updateWebhookEndpoint.execute(actorOf(request).user, String(request.params.id), {
          url: body.url,
          enabledEvents: body.enabled_events,
          description: body.description,
          apiVersion: body.api_version,
          status: body.status,
        });
        return presentEndpointWithHealth(deps, endpoint);
      },
    }),
    dashboardRoute({
      method: 'DELETE',
      path: '/dashboard/v1/webhook_endpoints/{id}',
      action: 'webhook_endpoints.write',
      validate: { params: webhookEndpointParams },
      handler: async (request) => {
        const { id } = await deps.deleteWebhookEndpoint.execute(actorOf(request).user, String(request.params.id));
        return { id, object: 'webhook_endpoint', deleted: true };
      },
    }),
  ];
}
