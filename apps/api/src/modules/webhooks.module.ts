import {
  AuditRecorder,
  Clock,
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  EventOutbox,
  GetEvent,
  GetWebhookDelivery,
  GetWebhookEndpointHealth,
  ListEvents,
  ListPaymentIntentEvents,
  ListWebhookDeliveries,
  ListWebhookEndpoints,
  MerchantRepository,
  NoticeOutbox,
  PlatformKeyRepository,
  PlatformKeys,
  RandomSource,
  RelayWebhookDeliveries,
  ResendWebhookDelivery,
  SecretBox,
  SendWebhookTestEvent,
  UnitOfWork,
  UpdateWebhookEndpoint,
  WebhookCrypto,
  WebhookDeliveryEventTypes,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  WebhookSender,
  type EventPublishDeps,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass, value, type Wiring } from './wiring';
import type { Capability } from './capability';
import listEvents from '../routes/webhooks/list-events.route';
import getEvent from '../routes/webhooks/get-event.route';
import listWebhookPublicKeys from '../routes/webhooks/list-webhook-public-keys.route';
import listWebhookEndpoints from '../routes/webhooks/list-webhook-endpoints.route';
import createWebhookEndpoint from '../routes/webhooks/create-webhook-endpoint.route';
import updateWebhookEndpoint from '../routes/webhooks/update-webhook-endpoint.route';
import deleteWebhookEndpoint from '../routes/webhooks/delete-webhook-endpoint.route';
import getWebhookDelivery from '../routes/webhooks/get-webhook-delivery.route';
import sendWebhookTestEvent from '../routes/webhooks/send-webhook-test-event.route';
import getWebhookOptions from '../routes/webhooks/get-webhook-options.route';
import listWebhookDeliveries from '../routes/webhooks/list-webhook-deliveries.route';
import resendWebhookDelivery from '../routes/webhooks/resend-webhook-delivery.route';
import dashboardListEvents from '../routes/webhooks/dashboard-list-events.route';
import dashboardGetEvent from '../routes/webhooks/dashboard-get-event.route';
import dashboardListIntentEvents from '../routes/webhooks/dashboard-list-intent-events.route';

/** What every change that announces itself writes through: the event log and a delivery per subscribed endpoint. */
export const publishingWiring: Wiring<EventPublishDeps> = {
  events: EventOutbox,
  webhookEndpoints: WebhookEndpointRepository,
  webhookDeliveries: WebhookDeliveryRepository,
  random: RandomSource,
};

/** Events, webhook endpoints, the relay that delivers them and the platform's signing keys. */
export const webhooksModule: Capability = {
  bindings: (config) =>
    new ContainerModule((options) => {
      bindClass(options, ListEvents, { events: EventOutbox });
      bindClass(options, GetEvent, { events: EventOutbox });
      bindClass(options, ListPaymentIntentEvents, { events: EventOutbox });
      bindClass(options, PlatformKeys, {
        keys: PlatformKeyRepository,
        crypto: WebhookCrypto,
        secretBox: SecretBox,
        clock: Clock,
        random: RandomSource,
        options: value({ activationSeconds: config.keyActivationSeconds }),
      });
      bindClass(options, RelayWebhookDeliveries, {
        uow: UnitOfWork,
        deliveries: WebhookDeliveryRepository,
        endpoints: WebhookEndpointRepository,
        merchants: MerchantRepository,
        notices: NoticeOutbox,
        sender: WebhookSender,
        crypto: WebhookCrypto,
        secretBox: SecretBox,
        platformKeys: PlatformKeys,
        clock: Clock,
        random: RandomSource,
        leaseMs: value(config.webhookLeaseMs),
      });
      bindClass(options, ListWebhookDeliveries, { deliveries: WebhookDeliveryRepository });
      bindClass(options, WebhookDeliveryEventTypes, { events: EventOutbox });
      bindClass(options, GetWebhookDelivery, { deliveries: WebhookDeliveryRepository, events: EventOutbox, endpoints: WebhookEndpointRepository });
      bindClass(options, SendWebhookTestEvent, {
        uow: UnitOfWork,
        endpoints: WebhookEndpointRepository,
        merchants: MerchantRepository,
        sender: WebhookSender,
        crypto: WebhookCrypto,
        secretBox: SecretBox,
        platformKeys: PlatformKeys,
        audit: AuditRecorder,
        clock: Clock,
        random: RandomSource,
      });
      bindClass(options, ResendWebhookDelivery, { uow: UnitOfWork, deliveries: WebhookDeliveryRepository, audit: AuditRecorder, clock: Clock });
      bindClass(options, GetWebhookEndpointHealth, { deliveries: WebhookDeliveryRepository });
      bindClass(options, ListWebhookEndpoints, { endpoints: WebhookEndpointRepository });
      bindClass(options, CreateWebhookEndpoint, {
        uow: UnitOfWork,
        merchants: MerchantRepository,
        endpoints: WebhookEndpointRepository,
        secrets: SecretBox,
        audit: AuditRecorder,
        clock: Clock,
        random: RandomSource,
      });
      const endpointChange = { uow: UnitOfWork, endpoints: WebhookEndpointRepository, audit: AuditRecorder, clock: Clock };
      bindClass(options, UpdateWebhookEndpoint, endpointChange);
      bindClass(options, DeleteWebhookEndpoint, endpointChange);
    }),
  routes: [
    listEvents,
    getEvent,
    listWebhookPublicKeys,
    listWebhookEndpoints,
    createWebhookEndpoint,
    updateWebhookEndpoint,
    deleteWebhookEndpoint,
    listWebhookDeliveries,
    getWebhookDelivery,
    resendWebhookDelivery,
    sendWebhookTestEvent,
    getWebhookOptions,
    dashboardListEvents,
    dashboardGetEvent,
    dashboardListIntentEvents,
  ],
};
