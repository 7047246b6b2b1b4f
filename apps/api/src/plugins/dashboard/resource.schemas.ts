import { ID_PATTERNS } from '@payments/core';
import Joi from 'joi';

// Joi checks shapes only (types, unknown fields); the rules live in core. The shared validation
// options (http/validation.ts) make sure no message repeats a value, so an account number, code
// or key sent in the wrong place is never echoed back.

/** A JSON object body: nothing coerced, unknown fields refused by name. */
function body(keys: Joi.PartialSchemaMap): Joi.ObjectSchema {
  return Joi.object(keys).required().prefs({ convert: false });
}

/** Long enough for any legitimate value; the precise limits are core's. */
const text = Joi.string().max(4096);

function idParams(pattern: RegExp, name: string): Joi.ObjectSchema {
  return Joi.object({ id: Joi.string().max(64).pattern(pattern, name).required() });
}

export const apiKeyParams = idParams(ID_PATTERNS.api_key, 'API key id');
export const payoutMethodParams = idParams(ID_PATTERNS.payout_destination, 'payout method id');
export const webhookEndpointParams = idParams(ID_PATTERNS.webhook_endpoint, 'webhook endpoint id');

export const settingsPatchBody = body({
  business_name: text,
  support_email: text.allow(null),
  statement_descriptor: text.allow(null),
  settlement_schedule: text,
});

export const apiKeyCreateBody = body({
  mode: Joi.string().valid('test', 'live').required(),
  name: text,
});

export const noBody = Joi.object({}).allow(null);

export const signingKeyCreateBody = body({
  public_key: text.required(),
  name: text,
});

/** The one-time code of a step-up route: any JSON, since a missing or non-string code is refused by the code check (403), like a wrong one. */
export const stepUpCode = Joi.any().description('The one-time code of the person acting (step-up).');

/** `code` takes any JSON: a missing or non-string code is refused by the code check (403), like a wrong one. */
export const payoutMethodCreateBody = body({
  type: text.required(),
  currency: text.required(),
  account_holder: text.required(),
  bank_code: text.required(),
  account_number: text.required(),
  code: stepUpCode,
});

export const payoutDefaultBody = Joi.object({ code: stepUpCode }).allow(null).prefs({ convert: false });

const events = Joi.array().items(Joi.string().max(128)).max(1000);

export const webhookEndpointCreateBody = body({
  url: text.required(),
  enabled_events: events,
  description: Joi.string().allow('').max(4096),
});

export const webhookEndpointPatchBody = body({
  url: text,
  enabled_events: events,
  description: Joi.string().allow('').max(4096),
  api_version: text,
  status: text,
});
