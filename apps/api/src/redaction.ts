/**
 * The one redaction list of the service: every pino logger it creates (API, worker, admin CLI)
 * censors these fields wherever code puts them. It is a second line of defence: code never logs
 * a key, token, password or full account number on purpose. `idempotency-key` is deliberately not
 * here: it is a client's request label, not a credential, and useful when tracing a retry.
 */
export const REDACTED = '[redacted]';

/** Field names (lower case, as Node gives header names) that carry a credential or personal secret. */
export const SECRET_FIELDS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  // As HTTP clients (fetch's Headers aside) spell them when they log a request they made.
  'Authorization',
  'Proxy-Authorization',
  'Cookie',
  'Set-Cookie',
  'X-Api-Key',
  'api_key',
  'apiKey',
  'password',
  'newPassword',
  'new_password',
  'secret',
  'secretKey',
  'secret_key',
  'callbackSecret',
  'callback_secret',
  'signingSecret',
  'signing_secret',
  'privateKey',
  'private_key',
  'masterKey',
  'master_key',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'checkoutToken',
  'checkout_token',
  'sessionToken',
  'session_token',
  'accountNumber',
  'account_number',
  'iban',
  'otp',
  'oneTimeCode',
  'one_time_code',
  'totp',
  'mfaSecret',
  'mfa_secret',
];

/** A pino path for one key: bracket notation when it is not an identifier (`set-cookie`). */
function pathOf(prefix: string, key: string): string {
  const step = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`;
  return prefix === '' ? step.replace(/^\./, '') : `${prefix}${step}`;
}

/**
 * pino's redaction paths for the list: at the top level, one level down (`*.x`), and under the
 * containers that hold headers or bodies (`req.headers`, `err.config.headers`…). fast-redact has no
 * recursive wildcard, so the depth is spelled out; deeper secrets must not be logged at all.
 */
export function redactionPaths(fields: readonly string[] = SECRET_FIELDS): string[] {
  const prefixes = ['', '*', '*.headers', 'err.config.headers', '*.body', '*.payload'];
  return [...new Set(prefixes.flatMap((prefix) => fields.map((field) => pathOf(prefix, field))))];
}
