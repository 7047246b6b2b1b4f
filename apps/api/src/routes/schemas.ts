import { DISPUTE_EVIDENCE_LIMITS, ID_PATTERNS, MAX_AMOUNT, METADATA_LIMITS, MODES, REFUND_REASONS, type PageRequest } from '@payments/core';
import Joi from 'joi';
import { objectSchema, oneOf, orNull, required, withDefault } from '../http/typed-schema';

// Fragments more than one route validates with. Joi checks shapes only (types, lengths, unknown
// fields); the rules live in core. The shared validation options (http/validation.ts) make sure
// no message repeats a value, so an account number, code or key sent in the wrong place is never
// echoed back.

/** A JSON object body: JSON has types, so nothing is coerced ("100" is not an amount); unknown fields are refused by name. */
export const jsonBody = <F extends Parameters<typeof objectSchema>[0]>(fields: F) => required(objectSchema(fields)).prefs({ convert: false });

/** Long enough for any legitimate value; the precise limits are core's. */
export const text = Joi.string().max(4096);

/** An object id of the kind `pattern` matches (`name` is how a refusal calls it). */
export const idOf = (pattern: RegExp, name: string) => Joi.string().max(64).pattern(pattern, name);

/** `{id}` in the path. */
export const idParams = (pattern: RegExp, name: string) => objectSchema({ id: required(idOf(pattern, name)) });

/** Page size of a list. */
export const limit = withDefault(Joi.number().integer().min(1).max(100), 20).description('How many items a page holds: 1 to 100, default 20.');

/** `starting_after` of a list of objects of `id`'s kind. */
export const startingAfter = (id: Joi.StringSchema): Joi.StringSchema =>
  id.description('Cursor: the `id` of the last item of the page before; the page that follows it. An id of this merchant and mode.');

/** The page a list's validated `limit` and `starting_after` ask for. */
export const pageOf = (query: { readonly limit: number; readonly starting_after?: string }): PageRequest => ({
  limit: query.limit,
  startingAfter: query.starting_after,
});

/** The merchant's own string map on intents and refunds (its limits are core's `METADATA_LIMITS`). */
export const metadata = Joi.object<Record<string, string>>()
  .max(METADATA_LIMITS.keys)
  .pattern(Joi.string().min(1).max(METADATA_LIMITS.keyLength), Joi.string().allow('').max(METADATA_LIMITS.valueLength))
  .description(
    `The merchant’s own key-value pairs, stored as sent and never changed: at most ${METADATA_LIMITS.keys} keys of 1 to ${METADATA_LIMITS.keyLength} characters, ` +
      `string values of at most ${METADATA_LIMITS.valueLength}.`,
  );

export const currency = Joi.string().pattern(/^[A-Z]{3}$/, 'ISO 4217 code');

/** `{token}` of a checkout session: whatever the payer's link carries; anything longer than any token minted is unknown. */
export const checkoutTokenParams = objectSchema({ token: required(Joi.string().max(128)) });

/** A POST that takes no body (an empty JSON object is accepted too). */
export const noBody = orNull(objectSchema({}));

/** The query of a dashboard route of one mode: `?mode=test|live` (each mode has its own objects) and `fields`. */
export const withMode = <F extends Parameters<typeof objectSchema>[0]>(fields: F) => objectSchema({ mode: required(oneOf(MODES)), ...fields });

/** `?mode=test|live` alone. */
export const modeQuery = withMode({});

/** The one-time code of a dashboard step-up route: any JSON, since a missing or non-string code is refused by the code check (403), like a wrong one. */
export const stepUpCode = Joi.any<unknown>().description('The one-time code of the person acting (step-up).');

/** A one-time code is a string; anything else is no code (403 `mfa_code_invalid`, like a wrong one). */
export const codeOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const paymentIntentId = idOf(ID_PATTERNS.payment_intent, 'payment intent id').description('A payment intent id, `pi_…`.');
export const paymentIntentParams = objectSchema({ id: required(paymentIntentId) });

export const disputeId = idOf(ID_PATTERNS.dispute, 'dispute id').description('A dispute id, `dp_…`.');
export const disputeParams = objectSchema({ id: required(disputeId) });

/** What a refund is asked with, on /v1 and on the dashboard. */
export const refundFields = {
  payment_intent: required(paymentIntentId).description('The payment intent to refund: succeeded or channel_settled, of this merchant and mode.'),
  amount: Joi.number().integer().min(1).max(MAX_AMOUNT).description("Minor units of the intent's currency; left out, the whole amount not refunded yet."),
  reason: oneOf(REFUND_REASONS).description('Why the money goes back, for the merchant’s records and the channel’s.'),
};

/** Dispute evidence is a flat map of strings, bounded like metadata so one dispute stays small. */
export const disputeEvidenceBody = jsonBody({
  evidence: required(
    Joi.object<Record<string, string>>()
      .min(1)
      .max(DISPUTE_EVIDENCE_LIMITS.keys)
      .pattern(Joi.string().min(1).max(DISPUTE_EVIDENCE_LIMITS.keyLength), Joi.string().allow('').max(DISPUTE_EVIDENCE_LIMITS.valueLength)),
  ).description(
    `Key-value pairs merged into what the dispute holds (a key sent again replaces its value): at least one, at most ${DISPUTE_EVIDENCE_LIMITS.keys} keys in all, ` +
      `keys 1 to ${DISPUTE_EVIDENCE_LIMITS.keyLength} characters, values of at most ${DISPUTE_EVIDENCE_LIMITS.valueLength}.`,
  ),
});

export const refundId = idOf(ID_PATTERNS.refund, 'refund id').description('A refund id, `re_…`.');

export const eventId = idOf(ID_PATTERNS.event, 'event id').description('An event id, `evt_…`.');
export const refundParams = objectSchema({ id: required(refundId) });

export const settlementId = idOf(ID_PATTERNS.settlement, 'settlement id').description('A settlement id, `st_…`.');
export const settlementParams = objectSchema({ id: required(settlementId) });

export const webhookEndpointParams = idParams(ID_PATTERNS.webhook_endpoint, 'webhook endpoint id');
export const webhookEvents = Joi.array<string[]>().items(Joi.string().max(128)).max(1000);
export const webhookDescription = Joi.string().allow('').max(4096);

export const userIdParams = idParams(ID_PATTERNS.user, 'a user id (usr_…)');

/*
 * Dashboard credentials are checked for type and length only: a joi message that quoted the value
 * (a pattern, say) would echo a password or code into the error. Anything beyond the shape is
 * the use case's single 401.
 */
export const email = required(Joi.string().min(1).max(254));
export const password = required(Joi.string().min(1).max(1024));
