import {
  ID_PATTERNS,
  MAX_AMOUNT,
  MAX_CONVERTED_AT_CREATION,
  MAX_RETURN_URL_LENGTH,
  METADATA_LIMITS,
  PAYMENT_INTENT_LIMITS,
  PAYMENT_INTENT_STATUSES,
  SIMULATE_OUTCOMES,
} from '@payments/core';
import Joi from 'joi';

/** Shapes only; the domain rules (currency, catalog, return_url) live in core. */
export const paymentIntentCreateBody = Joi.object({
  amount: Joi.number()
    .integer()
    .min(1)
    .max(MAX_AMOUNT)
    .required()
    .description(
      `Minor units of currency, 1 to ${MAX_AMOUNT} (2^53 − 1, the largest integer every JSON reader holds exactly). ` +
        `In another currency than the settlement currency, the amount converted at today's rate may be at most ${MAX_CONVERTED_AT_CREATION} ` +
        '(half of 2^53 − 1, so the rate may move before it locks); more is 400 invalid_parameter with param amount.',
    ),
  currency: Joi.string().pattern(/^[A-Z]{3}$/, 'ISO 4217 code').required(),
  merchant_order_id: Joi.string().min(1).max(PAYMENT_INTENT_LIMITS.merchantOrderIdLength).required(),
  payment_method: Joi.string().max(64),
  channel_preference: Joi.string().max(64),
  description: Joi.string().allow('').max(PAYMENT_INTENT_LIMITS.descriptionLength),
  customer: Joi.string().max(PAYMENT_INTENT_LIMITS.customerLength),
  return_url: Joi.string().max(MAX_RETURN_URL_LENGTH),
  expires_in: Joi.number().integer().min(PAYMENT_INTENT_LIMITS.expiresIn.min).max(PAYMENT_INTENT_LIMITS.expiresIn.max),
  metadata: Joi.object()
    .max(METADATA_LIMITS.keys)
    .pattern(Joi.string().min(1).max(METADATA_LIMITS.keyLength), Joi.string().allow('').max(METADATA_LIMITS.valueLength)),
})
  .required()
  // JSON has types: "100" is not an amount, and nothing is coerced.
  .prefs({ convert: false });

export const noBody = Joi.object({}).allow(null);

export const limit = Joi.number().integer().min(1).max(100).default(20);

export const paymentIntentListQuery = Joi.object({
  limit,
  starting_after: Joi.string().pattern(ID_PATTERNS.payment_intent, 'payment intent id'),
  status: Joi.string().valid(...PAYMENT_INTENT_STATUSES),
  merchant_order_id: Joi.string().min(1).max(PAYMENT_INTENT_LIMITS.merchantOrderIdLength),
  'created[gte]': Joi.date().iso(),
});

export const eventListQuery = Joi.object({
  limit,
  starting_after: Joi.string().pattern(ID_PATTERNS.event, 'event id'),
});

export const paymentIntentParams = Joi.object({
  id: Joi.string().max(64).pattern(ID_PATTERNS.payment_intent, 'payment intent id').required(),
});

export const attemptCreateBody = Joi.object({
  payment_method: Joi.string().max(64).required(),
  channel: Joi.string().max(64),
})
  .required()
  .prefs({ convert: false });

export const simulateBody = Joi.object({
  outcome: Joi.string().valid(...SIMULATE_OUTCOMES).required(),
  failure_code: Joi.string().max(64),
  amount: Joi.number().integer().min(0).max(MAX_AMOUNT),
  currency: Joi.string().pattern(/^[A-Z]{3}$/, 'ISO 4217 code'),
})
  .required()
  .prefs({ convert: false });

export const advanceBody = Joi.object({
  clock: Joi.string().valid('expiry', 'release').required(),
})
  .required()
  .prefs({ convert: false });
