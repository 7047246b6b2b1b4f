/**
 * The event types an endpoint receives when its `enabled_events` is empty ("every type"): an
 * intent's status changes from requires_payment onward, the dispute lifecycle, and settlement
 * statuses. The list was promised before refunds existed, so it stays as it is.
 */
export const DEFAULT_EVENT_TYPES = [
  'payment_intent.requires_payment',
  'payment_intent.processing',
  'payment_intent.succeeded',
  'payment_intent.channel_settled',
  'payment_intent.failed',
  'payment_intent.expired',
  'payment_intent.canceled',
  'dispute.opened',
  'dispute.updated',
  'dispute.closed',
  'settlement.pending',
  'settlement.processing',
  'settlement.paid',
  'settlement.failed',
] as const;

/** Event types added since: delivered only to endpoints whose `enabled_events` names them. */
export const OPT_IN_EVENT_TYPES = ['refund.created', 'refund.succeeded', 'refund.failed'] as const;

/** Every event type the service publishes (`GET /v1/events` lists them all); an endpoint may subscribe to these and no others. */
export const EVENT_TYPES = [...DEFAULT_EVENT_TYPES, ...OPT_IN_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Whether an endpoint with no `enabled_events` receives events of this type. */
export function isDefaultEventType(type: string): boolean {
  return (DEFAULT_EVENT_TYPES as readonly string[]).includes(type);
}

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
