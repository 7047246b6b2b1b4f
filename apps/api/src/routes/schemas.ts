import { ID_PATTERNS, METADATA_LIMITS, MODES } from '@payments/core';
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
export const limit = withDefault(Joi.number().integer().min(1).max(100), 20);

/** The merchant's own string map on intents and refunds (its limits are core's `METADATA_LIMITS`). */
export const metadata = Joi.object<Record<string, string>>()
  .max(METADATA_LIMITS.keys)
  .pattern(Joi.string().min(1).max(METADATA_LIMITS.keyLength), Joi.string().allow('').max(METADATA_LIMITS.valueLength));

export const currency = Joi.string().pattern(/^[A-Z]{3}$/, 'ISO 4217 code');

/** `{token}` of a checkout session: whatever the payer's link carries; anything longer than any token minted is unknown. */
export const checkoutTokenParams = objectSchema({ token: required(Joi.string().max(128)) });

/** A POST that takes no body (an empty JSON object is accepted too). */
export const noBody = orNull(objectSchema({}));

/** `?mode=test|live` on the dashboard routes of one mode: each mode has its own destinations and endpoints. */
export const modeQuery = objectSchema({ mode: required(oneOf(MODES)) });

/** The one-time code of a dashboard step-up route: any JSON, since a missing or non-string code is refused by the code check (403), like a wrong one. */
export const stepUpCode = Joi.any<unknown>().description('The one-time code of the person acting (step-up).');

/** A one-time code is a string; anything else is no code (403 `mfa_code_invalid`, like a wrong one). */
export const codeOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const paymentIntentParams = idParams(ID_PATTERNS.payment_intent, 'payment intent id');

export const disputeId = idOf(ID_PATTERNS.dispute, 'dispute id');
export const disputeParams = objectSchema({ id: required(disputeId) });

export const refundId = idOf(ID_PATTERNS.refund, 'refund id');
export const refundParams = objectSchema({ id: required(refundId) });

export const settlementId = idOf(ID_PATTERNS.settlement, 'settlement id');
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
