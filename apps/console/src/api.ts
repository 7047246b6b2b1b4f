/**
 * The console's only way to the service: same-origin fetches of `/dashboard/v1`, the session cookie
 * riding along. Errors come back as the API's envelope; a 401 means the session is over.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

type Query = Readonly<Record<string, string | number | undefined>>;

interface RequestOptions {
  readonly query?: Query;
  readonly body?: unknown;
  /** Sent on writes that move money, so a double click or a retry does the work once. */
  readonly idempotencyKey?: string;
}

/** Called when the service says the session is over (expired, signed out elsewhere, disabled). */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

function pathWithQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * Reads JSON keeping every integer exact: a number past 2^53 − 1 (a balance can sum past it) is
 * read from its source digits as a BigInt instead of being rounded to a double.
 */
export function parseExactJson(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }): unknown =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value;
  return JSON.parse(text, reviver);
}

/**
 * The address of a dashboard export (`/dashboard/v1/exports/<file>.csv?…`, empty values left
 * out): a link to it downloads the file, the session cookie riding along as on every same-origin
 * request, so no script has to hold the file.
 */
export function exportUrl(file: 'payment_intents' | 'settlements' | 'balance_transactions', query: Query): string {
  return pathWithQuery(`/dashboard/v1/exports/${file}.csv`, query);
}

export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const response = await fetch(pathWithQuery(`/dashboard/v1${path}`, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  const json = text ? parseExactJson(text) : undefined;
  if (!response.ok) {
    const error = isRecord(json) && isRecord(json.error) ? json.error : {};
    const failure = new ApiError(
      response.status,
      typeof error.code === 'string' ? error.code : 'api_error',
      typeof error.message === 'string' ? error.message : response.statusText,
      typeof error.param === 'string' ? error.param : undefined,
      typeof error.request_id === 'string' ? error.request_id : undefined,
    );
    if (response.status === 401 && path !== '/session' && path !== '/mfa') onSignedOut();
    throw failure;
  }
  // The answers of this origin's own API have the documented shapes the types below describe.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- see above
  return json as T;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A fresh key for one intended write (one dialog, one click). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
