/**
 * Every event type the service delivers (Event's `type` in docs/openapi.json): an intent's status
 * changes from requires_payment onward, the dispute lifecycle, and settlement statuses. A webhook
 * endpoint may subscribe to these and no others.
 */
export const EVENT_TYPES = [
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
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
