import { ID_PATTERNS } from '@payments/core';
import Joi from 'joi';
import { objectSchema, required, withDefault } from '../http/typed-schema';

// Fragments more than one route validates with. Joi checks shapes only (types, lengths, unknown
// fields); the rules live in core. The shared validation options (http/validation.ts) make sure
// no message repeats a value, so an account number, code or key sent in the wrong place is never
// echoed back.

/** A JSON object body: JSON has types, so nothing is coerced ("100" is not an amount); unknown fields are refused by name. */
export const jsonBody = <F extends Parameters<typeof objectSchema>[0]>(fields: F) => required(objectSchema(fields)).prefs({ convert: false });

/** An object id of the kind `pattern` matches (`name` is how a refusal calls it). */
export const idOf = (pattern: RegExp, name: string) => Joi.string().max(64).pattern(pattern, name);

/** `{id}` in the path. */
export const idParams = (pattern: RegExp, name: string) => objectSchema({ id: required(idOf(pattern, name)) });

/** Page size of a list. */
export const limit = withDefault(Joi.number().integer().min(1).max(100), 20);

export const currency = Joi.string().pattern(/^[A-Z]{3}$/, 'ISO 4217 code');

/** A POST that takes no body (an empty JSON object is accepted too). */
export const noBody = Joi.object({}).allow(null);

export const paymentIntentParams = idParams(ID_PATTERNS.payment_intent, 'payment intent id');

export const disputeId = idOf(ID_PATTERNS.dispute, 'dispute id');
export const disputeParams = objectSchema({ id: required(disputeId) });

export const settlementId = idOf(ID_PATTERNS.settlement, 'settlement id');
export const settlementParams = objectSchema({ id: required(settlementId) });
