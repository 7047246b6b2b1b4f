import { EVENT_TYPES } from '@payments/sdk';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatDate } from '../format';
import { t } from '../i18n';
import { navigate } from '../router';
import { useConsole } from '../state';
import type { List, WebhookDelivery, WebhookEndpoint } from '../types';
import { useAction, useResource } from '../ui/hooks';
import { ConfirmDialog, DataTable, Dialog, DialogActions, ErrorText, Facts, Field, Link, Loading, Pager, SecretOnce, Status, usePager } from '../ui/kit';

function health(endpoint: WebhookEndpoint): string {
  if (endpoint.success_rate === undefined) return t('webhooks.noAttempts');
  return t('webhooks.rate', { rate: Math.round(endpoint.success_rate * 100), attempts: endpoint.delivery_attempts ?? 0 });
}

export function WebhooksPage() {
  const { mode, can } = useConsole();
  const endpoints = useResource(() => api<List<WebhookEndpoint>>('GET', '/webhook_endpoints', { query: { mode } }), [mode]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<WebhookEndpoint | undefined>();
  return (
    <>
      <h1>{t('webhooks.title')}</h1>
      {can('webhook_endpoints.write') ? (
        <button type="button" onClick={() => setCreating(true)}>
          {t('webhooks.add')}
        </button>
      ) : null}
      {created?.secret ? <SecretOnce label={t('webhooks.secret')} value={created.secret} /> : null}
      <Dialog title={t('webhooks.add')} open={creating} onClose={() => setCreating(false)}>
        <EndpointForm
          onCancel={() => setCreating(false)}
          onSaved={(endpoint) => {
            setCreating(false);
            setCreated(endpoint);
            endpoints.reload();
          }}
        />
      </Dialog>
      <ErrorText error={endpoints.error} />
      <Loading when={endpoints.loading && !endpoints.data} />
      <DataTable
        rows={endpoints.data?.data}
        rowKey={(endpoint) => endpoint.id}
        empty={t('webhooks.none')}
        columns={[
          { label: t('webhooks.url'), cell: (endpoint) => <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link> },
          { label: t('common.status'), cell: (endpoint) => <Status value={endpoint.status} /> },
          { label: t('webhooks.health'), cell: health },
          { label: t('webhooks.lastError'), wide: true, cell: (endpoint) => endpoint.last_error ?? '—' },
        ]}
      />
    </>
  );
}

/** Create (url, events, description) or edit (also api_version and status) one endpoint. */
function EndpointForm(props: { endpoint?: WebhookEndpoint; onCancel: () => void; onSaved: (endpoint: WebhookEndpoint) => void }) {
  const { mode } = useConsole();
  const existing = props.endpoint;
  const [url, setUrl] = useState(existing?.url ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [events, setEvents] = useState<string[]>([...(existing?.enabled_events ?? [])]);
  const [apiVersion, setApiVersion] = useState(existing?.api_version ?? '');
  const [status, setStatus] = useState(existing?.status ?? 'enabled');
  const action = useAction();
  const toggle = (type: string) => setEvents(events.includes(type) ? events.filter((value) => value !== type) : [...events, type]);
  const submit = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      const saved = existing
        ? await api<WebhookEndpoint>('PATCH', `/webhook_endpoints/${encodeURIComponent(existing.id)}`, {
            body: { url, description, enabled_events: events, status, ...(apiVersion ? { api_version: apiVersion } : {}) },
          })
        : await api<WebhookEndpoint>('POST', '/webhook_endpoints', {
            query: { mode },
            body: { url, enabled_events: events, ...(description ? { description } : {}) },
          });
      props.onSaved(saved);
    });
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <Field label={t('webhooks.url')} id="endpoint-url">
        <input id="endpoint-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value.trim())} />
      </Field>
      <Field label={t('webhooks.description')} id="endpoint-description">
        <input id="endpoint-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </Field>
      {existing ? (
        <>
          <Field label={t('webhooks.apiVersion')} id="endpoint-version">
            <input id="endpoint-version" value={apiVersion} onInput={(e) => setApiVersion(e.currentTarget.value.trim())} />
          </Field>
          <Field label={t('common.status')} id="endpoint-status">
            <select id="endpoint-status" value={status} onChange={(e) => setStatus(e.currentTarget.value === 'disabled' ? 'disabled' : 'enabled')}>
              <option value="enabled">{t('status.enabled')}</option>
              <option value="disabled">{t('status.disabled')}</option>
            </select>
          </Field>
        </>
      ) : null}
      <fieldset class="checks">
        <legend>{t('webhooks.events')}</legend>
        <p class="hint">{t('webhooks.eventsHint')}</p>
        {EVENT_TYPES.map((type) => (
          <label key={type}>
            <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} /> {type}
          </label>
        ))}
      </fieldset>
      <ErrorText error={action.error} />
      <DialogActions onCancel={props.onCancel} submitLabel={t('common.save')} disabled={action.busy} />
    </form>
  );
}

/** One endpoint: its health, settings, and its delivery log with resend. */
export function WebhookEndpointPage(props: { id: string }) {
  const { mode, can } = useConsole();
  const endpoints = useResource(() => api<List<WebhookEndpoint>>('GET', '/webhook_endpoints', { query: { mode } }), [mode]);
  const pager = usePager();
  const deliveries = useResource(
    () => api<List<WebhookDelivery>>('GET', '/webhook_deliveries', { query: { mode, endpoint: props.id, starting_after: pager.cursor } }),
    [props.id, mode, pager.cursor],
  );
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const resend = useAction();
  const [resent, setResent] = useState<string | undefined>();
  if (endpoints.error) return <ErrorText error={endpoints.error} />;
  if (!endpoints.data) return <Loading when />;
  const endpoint = endpoints.data.data.find((candidate) => candidate.id === props.id);
  if (!endpoint) return <p>{t('webhooks.notFound')}</p>;
  const writable = can('webhook_endpoints.write');
  return (
    <>
      <p>
        <Link to="/webhooks">← {t('webhooks.title')}</Link>
      </p>
      <h1>
        {endpoint.url} <Status value={endpoint.status} />
      </h1>
      <Facts
        rows={[
          [t('common.id'), <code key="id">{endpoint.id}</code>],
          [t('webhooks.description'), endpoint.description],
          [t('webhooks.events'), endpoint.enabled_events.length ? endpoint.enabled_events.join(', ') : t('webhooks.allEvents')],
          [t('webhooks.apiVersion'), endpoint.api_version],
          [t('webhooks.health'), health(endpoint)],
          [t('webhooks.lastError'), endpoint.last_error ? `${endpoint.last_error} (${formatDate(endpoint.last_error_at)})` : undefined],
          [t('webhooks.disabledReason'), endpoint.disabled_reason],
        ]}
      />
      {writable ? (
        <div class="actions">
          <button type="button" onClick={() => setEditing(true)}>
            {t('common.edit')}
          </button>
          <button type="button" class="danger" onClick={() => setDeleting(true)}>
            {t('common.delete')}
          </button>
        </div>
      ) : null}
      <Dialog title={t('webhooks.edit')} open={editing} onClose={() => setEditing(false)}>
        <EndpointForm
          endpoint={endpoint}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            endpoints.reload();
          }}
        />
      </Dialog>
      <ConfirmDialog
        title={t('webhooks.deleteTitle')}
        message={t('webhooks.deleteConfirm', { url: endpoint.url })}
        confirmLabel={t('common.delete')}
        open={deleting}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await api('DELETE', `/webhook_endpoints/${encodeURIComponent(endpoint.id)}`);
          navigate('/webhooks');
        }}
      />

      <h2>{t('webhooks.deliveries')}</h2>
      <ErrorText error={deliveries.error ?? resend.error} />
      {resent ? <p role="status">{t('webhooks.resent', { id: resent })}</p> : null}
      <DataTable
        rows={deliveries.data?.data}
        rowKey={(delivery) => delivery.id}
        empty={t('webhooks.noDeliveries')}
        columns={[
          {
            label: t('webhooks.event'),
            cell: (delivery) => (
              <Link to={`/events/${delivery.event}`}>
                <code>{delivery.event}</code>
              </Link>
            ),
          },
          { label: t('common.status'), cell: (delivery) => <Status value={delivery.status} /> },
          { label: t('webhooks.answer'), cell: (delivery) => delivery.response_status ?? '—' },
          { label: t('webhooks.attempts'), num: true, cell: (delivery) => delivery.attempts },
          { label: t('webhooks.nextRetry'), wide: true, cell: (delivery) => formatDate(delivery.next_retry_at) },
          { label: t('common.created'), wide: true, cell: (delivery) => formatDate(delivery.created) },
          ...(can('webhook_deliveries.write')
            ? [
                {
                  label: t('common.actions'),
                  cell: (delivery: WebhookDelivery) => (
                    <button
                      type="button"
                      class="secondary"
                      disabled={resend.busy}
                      aria-label={t('webhooks.resendOne', { id: delivery.event })}
                      onClick={() =>
                        void resend.run(async () => {
                          await api('POST', `/webhook_deliveries/${encodeURIComponent(delivery.id)}/resend`, { query: { mode } });
                          setResent(delivery.event);
                          deliveries.reload();
                        })
                      }
                    >
                      {t('webhooks.resend')}
                    </button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Pager pager={pager} hasMore={deliveries.data?.has_more ?? false} lastId={deliveries.data?.data.at(-1)?.id} />
    </>
  );
}
