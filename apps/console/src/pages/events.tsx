import { EVENT_TYPES } from '@payments/sdk';
import { api } from '../api';
import { formatDate } from '../format';
import { t } from '../i18n';
import { useConsole } from '../state';
import type { ApiEvent, List } from '../types';
import { useResource } from '../ui/hooks';
import { useQueryFilters } from '../router';
import { ErrorText, Link, Loading, PageError, Pager, SelectFilter, usePager } from '../ui/kit';

/** An event type in the person's words ("Payment succeeded"); the type itself stays beside it as code. */
export function eventLabel(type: string): string {
  return t(`eventType.${type}`, {}, type);
}

/** The event as the API sends it, folded away until asked for. */
export function EventBody(props: { event: ApiEvent; open?: boolean }) {
  return (
    <details open={props.open}>
      <summary>{t('events.body')}</summary>
      <pre class="json" translate={false}>
        {JSON.stringify(props.event, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}
      </pre>
    </details>
  );
}

export function EventsPage() {
  const { mode } = useConsole();
  const pager = usePager();
  const { values, apply } = useQueryFilters(['type'] as const);
  const { type } = values;
  const list = useResource(() => api<List<ApiEvent>>('GET', '/events', { query: { mode, type, starting_after: pager.cursor } }), [mode, type, pager.cursor]);
  return (
    <>
      <h1>{t('events.title')}</h1>
      <div class="filters">
        <SelectFilter
          id="event-type"
          label={t('events.type')}
          value={type}
          options={EVENT_TYPES}
          optionLabel={eventLabel}
          onChange={(value) => {
            pager.reset();
            apply({ type: value });
          }}
        />
      </div>
      <ErrorText error={list.error} retry={list.reload} />
      <Loading when={list.loading && !list.data} />
      {list.data && list.data.data.length === 0 ? <p>{t('events.none')}</p> : null}
      <ol class="timeline">
        {(list.data?.data ?? []).map((event) => (
          <li key={event.id}>
            <span class="muted">{formatDate(event.created)}</span> <Link to={`/events/${event.id}`}>{eventLabel(event.type)}</Link>{' '}
            <code translate={false}>{event.type}</code>
            <EventBody event={event} />
          </li>
        ))}
      </ol>
      <Pager pager={pager} hasMore={list.data?.has_more ?? false} lastId={list.data?.data.at(-1)?.id} />
    </>
  );
}

export function EventDetailPage(props: { id: string }) {
  const { mode } = useConsole();
  const event = useResource(() => api<ApiEvent>('GET', `/events/${encodeURIComponent(props.id)}`, { query: { mode } }), [props.id, mode]);
  if (event.error) return <PageError error={event.error} retry={event.reload} back={{ to: '/events', label: t('events.title') }} />;
  if (!event.data) return <Loading when />;
  return (
    <>
      <p>
        <Link to="/events">← {t('events.title')}</Link>
      </p>
      <h1>{eventLabel(event.data.type)}</h1>
      <p>
        <code translate={false}>{event.data.type}</code> · <code translate={false}>{event.data.id}</code> · {formatDate(event.data.created)}
      </p>
      <EventBody event={event.data} open />
    </>
  );
}
