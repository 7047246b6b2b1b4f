import type Omise from 'omise';

/**
 * What the channel uses of the `omise` SDK, typed. The SDK's client has a Search API resource
 * (`GET /search`) that its type declarations leave out; `OmiseSearchApi` types it with the SDK's
 * own object types, so an answer still has the SDK's shape.
 */
export interface OmiseSearchResult<T> {
  readonly object: 'search';
  readonly scope: string;
  readonly query: string;
  readonly page: number;
  readonly per_page: number;
  readonly total: number;
  readonly total_pages: number;
  readonly data: T[];
}

export interface OmiseSearchApi {
  list(parameters: { scope: 'charge'; query: string; order?: string; per_page?: number }): Promise<OmiseSearchResult<Omise.Charges.ICharge>>;
  list(parameters: { scope: 'refund'; query: string; order?: string; per_page?: number }): Promise<OmiseSearchResult<Omise.Charges.IRefundResponse>>;
}

export type OmiseClient = Omise.IOmise & { readonly search: OmiseSearchApi };

/** Omise's error object, which the SDK rejects with as it came (not an Error). */
export interface OmiseErrorObject {
  readonly object: 'error';
  readonly location?: string;
  readonly code: string;
  readonly message?: string;
}

export function isOmiseError(value: unknown): value is OmiseErrorObject {
  if (value === null || typeof value !== 'object') return false;
  const fields: Record<string, unknown> = { ...value };
  return fields['object'] === 'error' && typeof fields['code'] === 'string';
}

/** The SDK's HTTP status-like error codes, logged (never the message: it may echo input). */
export function omiseErrorCode(error: unknown): string | undefined {
  return isOmiseError(error) ? error.code : undefined;
}

/**
 * The SDK sets no timeout on its requests: a call that hangs is abandoned after `ms` (the request
 * itself runs on in the background until the socket gives up).
 */
export async function withTimeout<T>(ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new OmiseTimeout(ms)), ms);
  });
  try {
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class OmiseTimeout extends Error {
  constructor(ms: number) {
    super(`Omise did not answer within ${ms} ms.`);
    this.name = 'OmiseTimeout';
  }
}
