import { EVENT_TYPES, isDefaultEventType, type EventType } from '@payments/core';
import { EVENT_SCHEMAS, exampleEvent } from '../routes/webhooks/presenters';
import { includeComponent, ref, type JsonSchema } from './json-schema';

/** What causes each event: the one line a receiver needs to decide what to read back. */
const EVENT_CAUSES: Readonly<Record<EventType, string>> = {
  'payment_intent.requires_payment': 'An attempt’s order was placed: the payer has a credential (a QR code or a redirect) to pay with.',
  'payment_intent.processing': 'The payer acted and the channel is processing the payment.',
  'payment_intent.succeeded': 'The channel confirmed the payment at the ordered amount: the money is the merchant’s, pending until the channel settles it.',
  'payment_intent.channel_settled': 'The channel settled the funds to the platform; the payment becomes available at `available_at`.',
  'payment_intent.failed': 'The channel refused or failed the payment; another attempt may be placed before the intent expires.',
  'payment_intent.expired': 'The intent passed `expires_at` unpaid; its pending order was voided.',
  'payment_intent.canceled': 'The merchant canceled the intent; its pending order was voided.',
  'dispute.opened': 'A payer disputed a payment: its net is held until the ruling.',
  'dispute.updated': 'Evidence was added, or the channel moved the dispute under review.',
  'dispute.closed': 'The dispute was ruled, won (the hold is released) or lost (the payment is taken back).',
  'settlement.pending': 'A settlement was made of the available balance and waits to be paid out.',
  'settlement.processing': 'The payout of a settlement was sent to the payout provider.',
  'settlement.paid': 'The payout of a settlement reached the merchant’s bank account.',
  'settlement.failed': 'The payout of a settlement failed; its payments are freed for the next settlement.',
  'refund.created': 'A refund was asked for and sent to the channel.',
  'refund.succeeded': 'The channel returned the refund’s money to the payer.',
  'refund.failed': 'The channel did not return the money; the merchant’s balance is credited back.',
};

/** The signature headers every delivery carries, as `components.parameters`. */
export const WEBHOOK_HEADER_PARAMETERS: Readonly<Record<string, JsonSchema>> = {
  WebhookSignature: {
    name: 'X-Webhook-Signature',
    in: 'header',
    required: true,
    description:
      '`t=<unix seconds>,v1=<hex>,v2=<base64>,v1_kid=<n>,v2_kid=<key id>`. The signed message is the `t` value as sent, a dot, and the raw body bytes. ' +
      '`v1` is HMAC-SHA256 keyed by the 32 bytes the endpoint secret (64 hex characters) encodes, in hex; `v2` is an Ed25519 signature under the platform key ' +
      '`v2_kid` of GET /v1/webhook_public_keys, in base64. One valid signature is enough; refuse a `t` more than 300 seconds from your clock, and ignore fields you do not know. ' +
      'The platform key signs every merchant’s deliveries alike: a receiver that checks only `v2` also checks the body names its own merchant (`data.merchant`) and mode (`livemode`).',
    schema: { type: 'string', examples: ['t=1788256800,v1=5f2b…,v2=kTq…,v1_kid=1,v2_kid=key_GEZDGNBVGY3TQOJQGEZDGNBVGY'] },
  },
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: the event id, the same on every attempt and resend; de-duplicate on it.',
    schema: { type: 'string', pattern: '^evt_[A-Z2-7]+$' },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: the same unix seconds as `t` in X-Webhook-Signature.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookStandardSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: `v1,<base64>` (HMAC-SHA256 keyed by the endpoint secret’s 32 bytes) and `v1a,<base64>` (the platform’s Ed25519 signature), ' +
      'space separated, over `<webhook-id>.<webhook-timestamp>.<raw body>`. Its libraries want the secret as `whsec_` + base64 of the 32 bytes. ' +
      'A receiver that checks only `v1a` also checks the body names its own merchant and mode, as for `v2`.',
    schema: { type: 'string' },
  },
};

const DELIVERY_RULES =
  'One HTTPS POST per attempt, with a 10-second timeout. Verify a signature over the raw body before parsing it. ' +
  'The body is a notice, not the object: read the object through the API before acting. Events may arrive out of order and more than once; ' +
  'de-duplicate on `id`. The body is rendered at the endpoint’s `api_version`. Any answer but a 2xx is retried after 1 minute, 5 minutes, ' +
  '30 minutes, 2 hours, 8 hours and 24 hours; redirects are not followed.';

/** `webhooks` of the document: what the service POSTs to a merchant's endpoints, one entry per event type. */
export function webhookOperations(schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const event = includeComponent(schemas, EVENT_SCHEMAS.Event);
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const subscription = isDefaultEventType(type)
        ? 'Delivered to endpoints whose `enabled_events` names it or is empty.'
        : 'Delivered only to endpoints whose `enabled_events` names it.';
      const operation: JsonSchema = {
        operationId: `${type.replace(/[._]([a-z])/g, (_match, letter: string) => letter.toUpperCase())}Webhook`,
        summary: type,
        description: `${EVENT_CAUSES[type]} ${subscription}\n\n${DELIVERY_RULES}`,
        tags: ['Webhooks'],
        security: [],
        parameters: Object.keys(WEBHOOK_HEADER_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { allOf: [ref(event), { properties: { type: { const: type, description: 'This entry’s event type.' } } }] },
              example: exampleEvent(type),
            },
          },
        },
        responses: {
          '200': { description: 'Any 2xx marks the delivery delivered; answer at once and do the work afterwards.' },
          '410': { description: 'Gone: the endpoint is disabled (`disabled_reason: gone`) and gets nothing more until it is enabled again.' },
        },
      };
      return [type, { post: operation }];
    }),
  );
}
