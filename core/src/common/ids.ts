import type { RandomSource } from './random-source.port';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * Object kinds and their id shape (the patterns of docs/openapi.json): the prefix and the alphabet
 * after it. Ids carry no meaning and no order; lists order by a storage sequence, not by id.
 */
export const ID_FORMATS = {
  payment_intent: { prefix: 'pi_', alphabet: BASE62, length: 24 },
  payment_attempt: { prefix: 'pa_', alphabet: BASE32, length: 26 },
  dispute: { prefix: 'dp_', alphabet: BASE62, length: 24 },
  settlement: { prefix: 'st_', alphabet: BASE32, length: 26 },
  refund: { prefix: 're_', alphabet: BASE32, length: 26 },
  event: { prefix: 'evt_', alphabet: BASE32, length: 26 },
  webhook_public_key: { prefix: 'key_', alphabet: BASE32, length: 26 },
  merchant: { prefix: 'mch_', alphabet: BASE62, length: 20 },
  user: { prefix: 'usr_', alphabet: BASE62, length: 20 },
  dashboard_session: { prefix: 'dss_', alphabet: BASE62, length: 20 },
  api_key: { prefix: 'ak_', alphabet: BASE62, length: 20 },
  signing_key: { prefix: 'sgk_', alphabet: BASE62, length: 20 },
  payout_destination: { prefix: 'pd_', alphabet: BASE62, length: 20 },
  webhook_endpoint: { prefix: 'we_', alphabet: BASE62, length: 20 },
  notice: { prefix: 'ntc_', alphabet: BASE32, length: 26 },
  webhook_delivery: { prefix: 'whd_', alphabet: BASE32, length: 26 },
  webhook_delivery_attempt: { prefix: 'wha_', alphabet: BASE32, length: 26 },
  reconciliation_item: { prefix: 'rcb_', alphabet: BASE32, length: 26 },
} as const;

export type IdKind = keyof typeof ID_FORMATS;

/** Id patterns the API validates path parameters against. */
export const ID_PATTERNS = {
  payment_intent: /^pi_[0-9A-Za-z]+$/,
  dispute: /^dp_[0-9A-Za-z]+$/,
  settlement: /^st_[A-Z2-7]+$/,
  refund: /^re_[A-Z2-7]+$/,
  event: /^evt_[A-Z2-7]+$/,
  api_key: /^ak_[0-9A-Za-z]+$/,
  payout_destination: /^pd_[0-9A-Za-z]+$/,
  webhook_endpoint: /^we_[0-9A-Za-z]+$/,
  webhook_delivery: /^whd_[A-Z2-7]+$/,
  user: /^usr_[0-9A-Za-z]+$/,
} as const;

/**
 * Draws `length` characters uniformly from `alphabet`. Rejection sampling keeps every character
 * equally likely (a plain modulo would favour the first ones).
 */
export function randomString(random: RandomSource, alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of random.bytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new id of the given kind, for example `pi_3kTq…` (24 base62 characters, about 143 bits). */
export function newId(random: RandomSource, kind: IdKind): string {
  const format = ID_FORMATS[kind];
  return format.prefix + randomString(random, format.alphabet, format.length);
}
