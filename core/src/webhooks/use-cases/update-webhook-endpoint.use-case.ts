import type { AuditRecorder, User } from '../../dashboard';
import { isRenderedVersion } from '../../merchants';
import type { Clock, UnitOfWork } from '../../common';
import { CoreError, invalidParameter, isKeyOf, isOneOf, notFound } from '../../common';
import {
  validateEnabledEvents,
  validateWebhookDescription,
  validateWebhookUrl,
  WEBHOOK_ENDPOINT_STATUSES,
  type WebhookEndpoint,
} from '../domain/webhook-endpoint.entity';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';

export interface WebhookEndpointChange {
  readonly url?: string;
  readonly enabledEvents?: readonly string[];
  readonly description?: string;
  readonly apiVersion?: string;
  readonly status?: string;
}

const FIELD_NAMES: Readonly<Record<keyof WebhookEndpointChange, string>> = {
  url: 'url',
  enabledEvents: 'enabled_events',
  description: 'description',
  apiVersion: 'api_version',
  status: 'status',
};
export interface UpdateWebhookEndpointDeps {
  readonly uow: UnitOfWork;
  readonly endpoints: WebhookEndpointRepository;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
}

/**
 * Changes an endpoint of either mode: its URL, events, description, the version its deliveries
 * are rendered at (a version the service does not render is 400 `invalid_api_version`), or
 * enables/disables it. The secret never changes here. A deleted endpoint is 404.
 */
export class UpdateWebhookEndpoint {
  constructor(private readonly deps: UpdateWebhookEndpointDeps) {}

  async execute(actor: User, id: string, change: WebhookEndpointChange): Promise<WebhookEndpoint> {
    const url = change.url === undefined ? undefined : validateWebhookUrl(change.url);
    const enabledEvents = change.enabledEvents === undefined ? undefined : validateEnabledEvents(change.enabledEvents);
    const description = change.description === undefined ? undefined : validateWebhookDescription(change.description);
    if (change.apiVersion !== undefined && !isRenderedVersion(change.apiVersion)) {
      throw new CoreError('invalid_api_version', 'validation', 'api_version names a version the service does not render.', { param: 'api_version' });
    }
    const status = change.status;
    if (status !== undefined && !isOneOf(WEBHOOK_ENDPOINT_STATUSES, status)) {
      throw invalidParameter('status', `status must be one of ${WEBHOOK_ENDPOINT_STATUSES.join(', ')}.`);
    }
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const current = await self.deps.endpoints.findById(actor.merchantId, id);
      if (!current) throw notFound('webhook endpoint', id);
      const { description: _old, disabledReason: _reason, ...kept } = current;
      void _old;
      void _reason;
      const keptDescription = change.description === undefined ? current.description : description;
      const newStatus = status ?? current.status;
      // A person disabling an enabled endpoint says why; one already disabled keeps the relay's reason.
      const disabledReason = newStatus === 'enabled' ? undefined : current.status === 'disabled' ? current.disabledReason : 'manual';
      const updated: WebhookEndpoint = {
        ...kept,
        ...(keptDescription === undefined ? {} : { description: keptDescription }),
        ...(disabledReason === undefined ? {} : { disabledReason }),
        url: url ?? current.url,
        enabledEvents: enabledEvents ?? current.enabledEvents,
        apiVersion: change.apiVersion ?? current.apiVersion,
        status: newStatus,
        updated: self.deps.clock.now(),
      };
      if (!(await self.deps.endpoints.update(updated))) throw notFound('webhook endpoint', id);
      const fields = Object.keys(change).flatMap((key) => (isKeyOf(FIELD_NAMES, key) && change[key] !== undefined ? [FIELD_NAMES[key]] : []));
      await self.deps.audit.recordAction(
        actor,
        'webhook_endpoints.write',
        { type: 'webhook_endpoint', id },
        { change: 'updated', fields: fields.join(','), ...(change.status === undefined ? {} : { status: updated.status }) },
      );
      return updated;
    });
  }
}
