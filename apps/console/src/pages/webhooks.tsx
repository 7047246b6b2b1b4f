import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatDate } from '../format';
import { t } from '../i18n';
import { navigate } from '../router';
import { useConsole } from '../state';
import type { List, WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint, WebhookOptions, WebhookTestEvent } from '../types';
import { useAction, useResource, type Resource } from '../ui/hooks';
import {
  Breakable,
  ConfirmDialog,
  DataTable,
  Dialog,
  DialogActions,
  ErrorText,
  Facts,
  Field,
  Link,
  Loading,
  PageError,
  Pager,
  SecretOnce,
  Status,
  usePager,
} from '../ui/kit';
import { eventLabel } from './events';

/** The event types, the default ones and the API versions, from the service (the same for every account). */
function useWebhookOptions(): Resource<WebhookOptions> {
  return useResource(() => api<WebhookOptions>('GET', '/webhook_options'), []);
}

/** What an endpoint receives, spelled out: its types, or with none ticked the default ones by name. */
function ReceivedEvents(props: { enabled: readonly string[]; options: WebhookOptions | undefined }) {
  const types = props.enabled.length > 0 ? props.enabled : (props.options?.default_event_types ?? []);
  return (
    <>
      {props.enabled.length === 0 ? <p class="hint">{t('webhooks.defaultEvents')}</p> : null}
      <ul class="event-types">
        {types.map((type) => (
          <li key={type}>
            {eventLabel(type)} <code translate={false}>{type}</code>
          </li>
        ))}
      </ul>
    </>
  );
}

function health(endpoint: WebhookEndpoint): string {
  if (endpoint.success_rate === undefined) return t('webhooks.noAttempts');
  return t('webhooks.rate', { rate: Math.round(endpoint.success_rate * 100), attempts: endpoint.delivery_attempts ?? 0 });
}

/** An HTTP answer as a person reads it: its status, and what it means. */
function answerText(status: number | undefined): string {
  if (status === undefined) return t('webhooks.noAnswer');
  return t(status >= 200 && status < 300 ? 'webhooks.answerOk' : 'webhooks.answerBad', { status });
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
      <ErrorText error={endpoints.error} retry={endpoints.reload} />
      <Loading when={endpoints.loading && !endpoints.data} />
      <DataTable
        rows={endpoints.data?.data}
        rowKey={(endpoint) => endpoint.id}
        empty={t('webhooks.none')}
        columns={[
          {
            label: t('webhooks.url'),
            cell: (endpoint) => (
              <Link to={`/webhooks/${endpoint.id}`}>
                <Breakable text={endpoint.url} />
              </Link>
            ),
          },
          { label: t('common.status'), cell: (endpoint) => <Status value={endpoint.status} /> },
          { label: t('webhooks.health'), cell: health },
          { label: t('webhooks.lastError'), wide: true, cell: (endpoint) => (endpoint.last_error ? <Breakable text={endpoint.last_error} code /> : '—') },
        ]}
      />
    </>
  );
}

/** Create (url, events, description) or edit (also api_version and status) one endpoint. */
function EndpointForm(props: { endpoint?: WebhookEndpoint; onCancel: () => void; onSaved: (endpoint: WebhookEndpoint) => void }) {
  const { mode } = useConsole();
  const options = useWebhookOptions();
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
  const known = options.data;
  const defaults = known?.default_event_types ?? [];
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
          <Field label={t('webhooks.apiVersion')} id="endpoint-version" hint={t('webhooks.apiVersionHint')}>
            <select id="endpoint-version" aria-describedby="endpoint-version-hint" value={apiVersion} onChange={(e) => setApiVersion(e.currentTarget.value)}>
              {(known?.api_versions ?? [apiVersion]).map((version) => (
                <option key={version} value={version} translate={false}>
                  {version}
                </option>
              ))}
            </select>
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
        <p class="hint" id="events-hint">
          {events.length === 0 ? t('webhooks.noneTicked', { n: defaults.length }) : t('webhooks.ticked', { n: events.length })}
        </p>
        <ErrorText error={options.error} retry={options.reload} />
        {(known?.event_types ?? []).map((type) => (
          <label key={type}>
            <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} /> {eventLabel(type)} <code translate={false}>{type}</code>
            {events.length === 0 && defaults.includes(type) ? <span class="badge">{t('webhooks.byDefault')}</span> : null}
          </label>
        ))}
      </fieldset>
      <ErrorText error={action.error} />
      <DialogActions onCancel={props.onCancel} submitLabel={t('common.save')} disabled={action.busy} />
    </form>
  );
}

/** "Send test event": an example of the chosen type sent now; what went and what the endpoint answered. */
function TestEventForm(props: { endpoint: WebhookEndpoint; options: WebhookOptions | undefined; onClose: () => void }) {
  const types = props.options?.event_types ?? [];
  const [type, setType] = useState(props.endpoint.enabled_events[0] ?? props.options?.default_event_types[2] ?? 'payment_intent.succeeded');
  const [result, setResult] = useState<WebhookTestEvent | undefined>();
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    setResult(undefined);
    await action.run(async () => {
      setResult(await api<WebhookTestEvent>('POST', `/webhook_endpoints/${encodeURIComponent(props.endpoint.id)}/test_event`, { body: { type } }));
    });
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <p class="hint">{t('webhooks.testHint')}</p>
      <Field label={t('events.type')} id="test-event-type">
        <select id="test-event-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          {types.map((value) => (
            <option key={value} value={value}>
              {eventLabel(value)}
            </option>
          ))}
        </select>
      </Field>
      {action.busy ? (
        <p role="status" class="muted">
          {t('webhooks.testSending')}
        </p>
      ) : null}
      {result ? (
        <div role="status">
          <p class={result.response.status !== undefined && result.response.status < 300 && result.response.status >= 200 ? 'ok' : 'error'}>
            {answerText(result.response.status)} · {t('webhooks.latency', { ms: result.response.latency_ms })}
          </p>
          {result.response.error ? <Breakable text={result.response.error} code /> : null}
          <h3>{t('webhooks.answerBody')}</h3>
          <pre class="json" translate={false}>
            {result.response.body ?? '—'}
          </pre>
          <details>
            <summary>{t('webhooks.requestBody')}</summary>
            <pre class="json" translate={false}>
              {prettyJson(result.request.body)}
            </pre>
          </details>
        </div>
      ) : null}
      <ErrorText error={action.error} />
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onClose}>
          {t('common.close')}
        </button>
        <button type="submit" disabled={action.busy}>
          {t('webhooks.sendTest')}
        </button>
      </div>
    </form>
  );
}

/** A JSON body indented for reading; anything else as it came. */
function prettyJson(text: string | undefined): string {
  if (text === undefined) return '—';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** One endpoint: its health, settings, the events it receives spelled out, a test event, and its delivery log with resend. */
export function WebhookEndpointPage(props: { id: string }) {
  const { mode, can } = useConsole();
  const endpoints = useResource(() => api<List<WebhookEndpoint>>('GET', '/webhook_endpoints', { query: { mode } }), [mode]);
  const options = useWebhookOptions();
  const pager = usePager();
  const deliveries = useResource(
    () => api<List<WebhookDelivery>>('GET', '/webhook_deliveries', { query: { mode, endpoint: props.id, starting_after: pager.cursor } }),
    [props.id, mode, pager.cursor],
  );
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [testing, setTesting] = useState(false);
  const resend = useAction();
  const [resent, setResent] = useState<string | undefined>();
  const back = { to: '/webhooks', label: t('webhooks.title') };
  if (endpoints.error) return <PageError error={endpoints.error} retry={endpoints.reload} back={back} />;
  if (!endpoints.data) return <Loading when />;
  const endpoint = endpoints.data.data.find((candidate) => candidate.id === props.id);
  if (!endpoint)
    return (
      <>
        <h1>{t('error.notFoundTitle')}</h1>
        <p>{t('webhooks.notFound')}</p>
        <p>
          <Link to="/webhooks">← {t('webhooks.title')}</Link>
        </p>
      </>
    );
  const writable = can('webhook_endpoints.write');
  return (
    <>
      <p>
        <Link to="/webhooks">← {t('webhooks.title')}</Link>
      </p>
      <h1>
        <Breakable text={endpoint.url} /> <Status value={endpoint.status} />
      </h1>
      <Facts
        rows={[
          [
            t('common.id'),
            <code key="id" translate={false}>
              {endpoint.id}
            </code>,
          ],
          [t('webhooks.description'), endpoint.description],
          [t('webhooks.apiVersion'), endpoint.api_version ? <span translate={false}>{endpoint.api_version}</span> : undefined],
          [t('webhooks.health'), health(endpoint)],
          [
            t('webhooks.lastError'),
            endpoint.last_error ? <Breakable key="error" text={`${endpoint.last_error} (${formatDate(endpoint.last_error_at)})`} code /> : undefined,
          ],
          [
            t('webhooks.disabledReason'),
            endpoint.disabled_reason ? t(`webhooks.disabled.${endpoint.disabled_reason}`, {}, endpoint.disabled_reason) : undefined,
          ],
        ]}
      />
      <h2>{t('webhooks.events')}</h2>
      <ReceivedEvents enabled={endpoint.enabled_events} options={options.data} />
      {writable ? (
        <div class="actions">
          <button type="button" onClick={() => setEditing(true)}>
            {t('common.edit')}
          </button>
          <button type="button" class="secondary" onClick={() => setTesting(true)}>
            {t('webhooks.sendTest')}
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
      <Dialog title={t('webhooks.sendTest')} open={testing} onClose={() => setTesting(false)}>
        <TestEventForm endpoint={endpoint} options={options.data} onClose={() => setTesting(false)} />
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
      <ErrorText error={deliveries.error ?? resend.error} retry={deliveries.reload} />
      {resent ? <p role="status">{t('webhooks.resent', { type: eventLabel(resent) })}</p> : null}
      <DataTable
        rows={deliveries.data?.data}
        rowKey={(delivery) => delivery.id}
        empty={t('webhooks.noDeliveries')}
        columns={[
          {
            label: t('webhooks.event'),
            cell: (delivery) => (
              <Link to={`/webhooks/${endpoint.id}/deliveries/${delivery.id}`}>
                {delivery.event_type ? eventLabel(delivery.event_type) : t('webhooks.eventGone')}
              </Link>
            ),
          },
          { label: t('common.status'), cell: (delivery) => <Status value={delivery.status} /> },
          { label: t('webhooks.answer'), cell: (delivery) => (delivery.attempts > 0 ? answerText(delivery.response_status) : '—') },
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
                      aria-label={t('webhooks.resendOne', { type: eventLabel(delivery.event_type ?? ''), id: delivery.event })}
                      onClick={() =>
                        void resend.run(async () => {
                          await api('POST', `/webhook_deliveries/${encodeURIComponent(delivery.id)}/resend`, { query: { mode } });
                          setResent(delivery.event_type ?? delivery.event);
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

/** One delivery: the event it carried, the body sent, and each attempt with the endpoint's answer. */
export function WebhookDeliveryPage(props: { endpoint: string; id: string }) {
  const { mode } = useConsole();
  const delivery = useResource(
    () => api<WebhookDeliveryDetail>('GET', `/webhook_deliveries/${encodeURIComponent(props.id)}`, { query: { mode } }),
    [props.id, mode],
  );
  const back = { to: `/webhooks/${props.endpoint}`, label: t('webhooks.deliveries') };
  if (delivery.error) return <PageError error={delivery.error} retry={delivery.reload} back={back} />;
  const d = delivery.data;
  if (!d) return <Loading when />;
  return (
    <>
      <p>
        <Link to={back.to}>← {back.label}</Link>
      </p>
      <h1>
        {d.event_type ? eventLabel(d.event_type) : t('webhooks.eventGone')} <Status value={d.status} />
      </h1>
      <Facts
        rows={[
          [t('events.type'), d.event_type ? <code translate={false}>{d.event_type}</code> : undefined],
          [
            t('webhooks.event'),
            <Link key="event" to={`/events/${d.event}`}>
              <Breakable text={d.event} code />
            </Link>,
          ],
          [t('webhooks.url'), <Breakable key="url" text={d.url} />],
          [t('webhooks.attempts'), String(d.attempts)],
          [t('webhooks.nextRetry'), formatDate(d.next_retry_at)],
          [
            t('webhooks.apiVersion'),
            <span key="version" translate={false}>
              {d.request.api_version}
            </span>,
          ],
        ]}
      />
      <h2>{t('webhooks.requestBody')}</h2>
      <p class="hint">{t('webhooks.requestBodyHint')}</p>
      <pre class="json" translate={false}>
        {prettyJson(d.request.body)}
      </pre>
      <h2>{t('webhooks.attemptLog')}</h2>
      {d.attempt_log.length === 0 ? <p class="muted">{t('webhooks.noAttemptsYet')}</p> : null}
      <ol class="attempts">
        {d.attempt_log.map((attempt) => (
          <li key={attempt.id}>
            <p>
              <strong>{answerText(attempt.response_status)}</strong> · {formatDate(attempt.at)} · {t('webhooks.latency', { ms: attempt.latency_ms })}
            </p>
            {attempt.error && !(attempt.response_status !== undefined && attempt.error === `HTTP ${attempt.response_status}`) ? (
              <p>
                <Breakable text={attempt.error} code />
              </p>
            ) : null}
            <details open={attempt === d.attempt_log.at(-1)}>
              <summary>{t('webhooks.answerBody')}</summary>
              <pre class="json" translate={false}>
                {attempt.response_body ?? t('webhooks.noAnswerBody')}
              </pre>
            </details>
          </li>
        ))}
      </ol>
    </>
  );
}
