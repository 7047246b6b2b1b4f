import { API_VERSIONS, CURRENT_API_VERSION } from '../../merchants';
import { withoutUndefined } from '../../common';
import type { DomainEvent } from './event.entity';

/** An event body as JSON-ready data. */
export type RenderedEvent = Record<string, unknown>;
type EventRenderer = (event: DomainEvent) => RenderedEvent;

/** RFC 3339 UTC with whole seconds. */
export function rfc3339Seconds(date: Date): string {
  // toISOString always ends in `.mmmZ`: cut it rather than match it (this runs for every date presented).
  return `${date.toISOString().slice(0, -5)}Z`;
}

/**
 * 2026-09-01: `{id, type, created, livemode, data}`. The body names its recipient, the merchant
 * and mode the event is delivered to (`data.merchant`, `data.mode`, `livemode`), from the event's
 * own scope: the platform key signs every merchant's deliveries alike, and receivers that verify
 * by it tell their own events from another merchant's or mode's by these fields.
 */
function render20260901(event: DomainEvent): RenderedEvent {
  const amount = event.data.amount && { amount: event.data.amount.amount, currency: event.data.amount.currency };
  return {
    id: event.id,
    type: event.type,
    created: rfc3339Seconds(event.created),
    livemode: event.mode === 'live',
    data: withoutUndefined({ ...event.data, merchant: event.merchantId, mode: event.mode, amount }),
  };
}

/**
 * The event body renderer of each API version. A new version adds an entry (usually reusing the
 * previous renderer with a change on top); every version in API_VERSIONS must have one.
 */
const EVENT_RENDERERS: Readonly<Record<string, EventRenderer>> = {
  '2026-09-01': render20260901,
};

for (const version of API_VERSIONS) {
  if (EVENT_RENDERERS[version] === undefined) throw new Error(`No event renderer for API version ${version}`);
}

/** The version a body for `apiVersion` is rendered at: itself when the registry knows it, else the current one. */
export function renderedAt(apiVersion: string | undefined): string {
  return apiVersion !== undefined && Object.prototype.hasOwnProperty.call(EVENT_RENDERERS, apiVersion) ? apiVersion : CURRENT_API_VERSION;
}

/** The event body at `apiVersion` (the current version for one the registry does not know). */
export function renderEvent(event: DomainEvent, apiVersion: string = CURRENT_API_VERSION): RenderedEvent {
  const renderer = Object.prototype.hasOwnProperty.call(EVENT_RENDERERS, apiVersion) ? EVENT_RENDERERS[apiVersion] : undefined;
  return (renderer ?? EVENT_RENDERERS[CURRENT_API_VERSION])(event);
}

/** The exact bytes sent and signed. */
export function renderEventBody(event: DomainEvent, apiVersion: string): string {
  return JSON.stringify(renderEvent(event, apiVersion));
}
